"""A parser with the LEMMA / FEATS / XPOS heads through export and the ONNX runtime: the folder
carries the heads' outputs and classes, and the runtime's records and CoNLL-U equal the predictor's."""

import json
import os

import conllu
import pytest
from allennlp.predictors import Predictor

from green_nlp.dataset_readers.conllu_sentences import read_conllu
from green_nlp.export import export_archive
from green_nlp.runtime import load
from tests.conftest import FIXTURES, REPO_ROOT

DATA = FIXTURES / "ud" / "synthetic-tiny-ud-columns.conllu"


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    from allennlp.commands.train import train_model_from_file

    run = tmp_path_factory.mktemp("ud_heads") / "run"
    cwd = os.getcwd()
    os.chdir(REPO_ROOT)
    try:
        train_model_from_file(str(FIXTURES / "parser" / "experiment_ud_heads.jsonnet"), str(run), force=True)
    finally:
        os.chdir(cwd)
    return run / "model.tar.gz"


@pytest.fixture(scope="module")
def folder(archive, tmp_path_factory):
    return export_archive(archive, tmp_path_factory.mktemp("ud_heads_export") / "folder")


def _lines():
    raw = (FIXTURES / "raw_text.txt").read_text(encoding="utf-8").splitlines()
    sentences = [" ".join(s.words) for s in read_conllu(DATA)]
    return raw + sentences[:12]


def test_the_folder_lists_the_heads_outputs_and_classes(folder):
    parser = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    assert parser["outputs"]["lemma_rules"] == "lemma_rules_tags"
    assert parser["outputs"]["feats"] == "feats_tags" and parser["outputs"]["xpos"] == "xpos_tags"
    assert "Number=Sing|Person=3|Tense=Pres|VerbForm=Fin" in parser["labels"]["feats"]
    assert "VBZ" in parser["labels"]["xpos"]
    assert '["f",0,"",1,""]' in parser["labels"]["lemma_rules"]


def test_runtime_equals_predictor_with_the_new_columns(folder, archive):
    predictor = Predictor.from_path(str(archive), "green_dependency_parser")
    nlp = load(folder, precision="fp32", threads=1)
    lines = _lines()
    expected = [predictor.predict_json(predictor.load_line(line)) for line in lines]
    assert [doc.to_json() for doc in nlp.parse_many(lines, batch_size=5)] == expected
    for line, record in zip(lines, expected):
        assert nlp.parse(line).to_conllu() == predictor.dump_line(record)
    records = [s for record in expected for s in record["sentences"]]
    assert all(len(s["lemmas"]) == len(s["feats"]) == len(s["xpos"]) == len(s["words"]) for s in records)
    # the model learnt more than copying the form: some verb lemmas lose their -s
    assert any(lemma != word for s in records for word, lemma in zip(s["words"], s["lemmas"]))
    block = conllu.parse(nlp.parse(lines[0]).to_conllu())[0]
    assert all(token["lemma"] and token["xpos"] for token in block)
    assert any(token["feats"] for token in block)


def test_conllu_input_gets_the_predicted_columns_not_the_files(archive):
    from allennlp.models.archival import load_archive

    predictor = Predictor.from_archive(load_archive(str(archive)), "green_dependency_parser")
    instances = list(predictor._dataset_reader.read(str(DATA)))[:3]
    for instance, result in zip(instances, predictor.predict_batch_instance(instances)):
        record = result["sentences"][0]
        output = predictor._model.forward_on_instance(instance)
        assert record["lemmas"] == output["predicted_lemmas"]
        assert record["feats"] == output["predicted_feats"] and record["xpos"] == output["predicted_xpos"]


def test_int8_agreement_counts_the_new_columns(folder):
    from green_nlp.runtime.parser_agreement import int8_agreement, read_conllu_words

    agreement = int8_agreement(folder, read_conllu_words(DATA, with_upos=False))
    for column in ("lemmas", "feats", "xpos"):
        assert 0.8 <= agreement[column] <= 1.0


def test_a_folder_without_the_heads_fills_no_new_columns(parser_folders):
    nlp = load(parser_folders["quickstart"], precision="fp32", threads=1)
    sentence = nlp.parse("The cat sat on the mat.").sentences[0]
    assert sentence.lemmas is None and "lemmas" not in sentence.to_json()
    assert all(line.split("\t")[2] == "_" for line in sentence.to_conllu().splitlines() if line[:1].isdigit())


def test_runtime_equals_predictor_with_attested_words_and_they_change_lemmas(folder, archive, tmp_path, monkeypatch):
    """A word list holding every lemma the head's other scripts make and none its best scripts make:
    each word whose best lemma is not its form takes an alternative, the same in both (any
    probability counts here: this tiny model is sure of its scripts)."""
    import shutil

    from green_nlp.export.attested_words import add_to_folder
    from green_nlp.runtime import lemma_choice

    monkeypatch.setattr(lemma_choice, "MIN_RATIO", 0.0)
    from green_nlp.runtime.lemma_choice import FILE, AttestedWords
    from green_nlp.runtime.lemma_rules import apply_rule

    lines = _lines()
    plain = [doc.to_json() for doc in load(folder, precision="fp32", threads=1).parse_many(lines)]
    best = {lemma for record in plain for s in record["sentences"] for lemma in s["lemmas"]}
    rules = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))["labels"]["lemma_rules"]
    words = {w for record in plain for s in record["sentences"] for w in s["words"]}
    others = {apply_rule(w, rule) for w in words for rule in rules} - best
    chosen = shutil.copytree(folder, tmp_path / "folder")
    add_to_folder(chosen, AttestedWords(others), ["test"])
    nlp = load(chosen, precision="fp32", threads=1)
    assert nlp.attested_words is not None and len(nlp.attested_words) == len({w.lower() for w in others})
    got = [doc.to_json() for doc in nlp.parse_many(lines, batch_size=5)]
    predictor = Predictor.from_path(str(archive), "green_dependency_parser", attested_words=str(chosen / FILE))
    assert got == [predictor.predict_json(predictor.load_line(line)) for line in lines]
    changed = [
        (a, b)
        for new, old in zip(got, plain)
        for s_new, s_old in zip(new["sentences"], old["sentences"])
        for a, b in zip(s_new["lemmas"], s_old["lemmas"])
        if a != b
    ]
    assert changed and all(a in others for a, _ in changed)


def test_a_word_list_needs_a_graph_with_the_lemma_scripts(parser_folders, tmp_path):
    import shutil

    from green_nlp.export.attested_words import add_to_folder
    from green_nlp.runtime.lemma_choice import AttestedWords

    plain = shutil.copytree(parser_folders["quickstart"], tmp_path / "plain")
    with pytest.raises(ValueError, match="lemma_rules_top"):
        add_to_folder(plain, AttestedWords(["word"]), ["test"])
