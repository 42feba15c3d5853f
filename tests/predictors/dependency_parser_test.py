import json
import subprocess
import sys

import pytest
from allennlp.predictors import Predictor

from green_nlp.dataset_readers import read_conllu
from tests.conftest import FIXTURES, REPO_ROOT


@pytest.fixture(scope="module")
def predictor(quickstart_archive):
    return Predictor.from_path(str(quickstart_archive), "green_dependency_parser")


def _attachment(gold_file, predicted_file):
    gold, predicted = list(read_conllu(gold_file)), list(read_conllu(predicted_file))
    assert [g.words for g in gold] == [p.words for p in predicted]
    pairs = [
        (g, p) for gs, ps in zip(gold, predicted) for g, p in zip(zip(gs.heads, gs.deprels), zip(ps.heads, ps.deprels))
    ]
    uas = sum(g[0] == p[0] for g, p in pairs) / len(pairs)
    las = sum(g == p for g, p in pairs) / len(pairs)
    return uas, las


def test_raw_text_paragraph_becomes_one_record_with_one_tree_per_sentence(predictor):
    output = predictor.predict_json(predictor.load_line("every teacher trains the model . a cat sees a dog .\n"))
    sentences = output["sentences"]
    assert [s["words"] for s in sentences] == [
        ["every", "teacher", "trains", "the", "model", "."],
        ["a", "cat", "sees", "a", "dog", "."],
    ]
    for sentence in sentences:
        assert sum(1 for h in sentence["heads"] if h == 0) == 1
        assert len(sentence["upos"]) == len(sentence["words"])  # the quickstart model tags UPOS


def test_conllu_output_is_valid_conllu(predictor, tmp_path):
    lines = (FIXTURES / "raw_text.txt").read_text().splitlines()
    outputs = predictor.predict_batch_json([predictor.load_line(line) for line in lines])
    path = tmp_path / "out.conllu"
    path.write_text("".join(predictor.dump_line(o) for o in outputs))
    sentences = list(read_conllu(path))  # validates ids, heads, single root, no cycles
    assert len(sentences) == 4
    assert sentences[-1].words[-2:] == ["river", "."]


def test_bad_line_is_reported_and_the_rest_kept(predictor):
    inputs = [
        predictor.load_line(line)
        for line in ["a cat sees a dog .", '{"words": []}', " ".join(["dog"] * 1001), "the dog sees a cat ."]
    ]
    outputs = predictor.predict_batch_json(inputs)
    assert len(outputs) == 4
    assert "sentences" in outputs[0] and "sentences" in outputs[3]
    assert "no tokens" in outputs[1]["error"]
    assert "max_sentence_length" in outputs[2]["error"]
    assert predictor.dump_line(outputs[1]) == f"# line = {inputs[1]['line']}\n# error = {outputs[1]['error']}\n\n"


def test_an_over_long_sentence_names_the_predictor_argument_that_takes_it(quickstart_archive, predictor):
    line = predictor.load_line(" ".join(["dog"] * 1001))
    error = predictor.predict_batch_json([line])[0]["error"]
    advice = """--predictor-args '{"max_sentence_length": 1001}'"""
    assert error.endswith(advice), error
    # the advice, followed, parses the sentence
    raised = Predictor.from_path(str(quickstart_archive), "green_dependency_parser", **json.loads(advice.split("'")[1]))
    (sentence,) = raised.predict_batch_json([raised.load_line(" ".join(["dog"] * 1001))])[0]["sentences"]
    assert len(sentence["words"]) == 1001


def _allennlp(*args):
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", *args, "--include-package", "green_nlp"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def test_allennlp_predict_cli_on_raw_text_and_on_conllu(quickstart_archive, tmp_path):
    raw_out = tmp_path / "raw.conllu"
    _allennlp(
        "predict",
        str(quickstart_archive),
        str(FIXTURES / "raw_text.txt"),
        "--output-file",
        str(raw_out),
        "--silent",
        "--batch-size",
        "2",
    )
    assert len(list(read_conllu(raw_out))) == 4

    json_out = tmp_path / "raw.jsonl"
    _allennlp(
        "predict",
        str(quickstart_archive),
        str(FIXTURES / "raw_text.txt"),
        "--output-file",
        str(json_out),
        "--silent",
        "--predictor-args",
        json.dumps({"output_format": "json"}),
    )
    records = [json.loads(line) for line in json_out.read_text().splitlines()]
    assert [len(r["sentences"]) for r in records] == [1, 2, 1]

    gold = FIXTURES / "ud" / "synthetic-dev.conllu"
    conllu_out = tmp_path / "dev.conllu"
    _allennlp(
        "predict",
        str(quickstart_archive),
        str(gold),
        "--use-dataset-reader",
        "--predictor",
        "green_dependency_parser",
        "--output-file",
        str(conllu_out),
        "--silent",
    )
    uas, las = _attachment(gold, conllu_out)
    assert uas > 0.9 and las > 0.9  # the quickstart parser really learned the fixture grammar
    first = next(read_conllu(conllu_out))
    assert first.metadata["sent_id"] == "dev-1"  # comments carried through


def test_a_gold_upos_archive_refuses_tags_of_another_tagset_and_keeps_the_other_lines(parser_archives):
    teacher = Predictor.from_path(str(parser_archives["teacher"]), "green_dependency_parser")
    words = ["the", "cat", "sees", "a", "dog", "."]
    lines = [
        json.dumps({"words": words, "upos": ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"]}),
        json.dumps({"words": words, "upos": ["DT", "NN", "VBZ", "DT", "NN", "."]}),
        json.dumps({"words": words, "upos": ["DET", "NOUN", "VERB", "DET", "NOUN", "SYM"]}),  # unseen, read as unknown
    ]
    outputs = teacher.predict_batch_json([teacher.load_line(line) for line in lines])
    assert "sentences" in outputs[0] and "sentences" in outputs[2]
    assert outputs[1]["error"].startswith("'upos' item 1 is 'DT', not a tag this model knows (")
    assert "not a Universal POS tag" in outputs[1]["error"]


def test_a_parser_without_upos_writes_every_word_and_keeps_a_conllu_files_upos(parser_archives, tmp_path):
    """A model that neither reads nor predicts UPOS gave the record `upos: None`, which AllenNLP's
    sanitize turns into the string "None": its CoNLL-U had four rows, one for each of N, o, n, e."""
    words_only = Predictor.from_path(str(parser_archives["words_only"]), "green_dependency_parser")
    words = ["the", "cat", "sees", "a", "dog", "on", "the", "mat", "."]
    output = words_only.predict_json({"words": words})
    assert "upos" not in output["sentences"][0]
    rows = [line.split("\t") for line in words_only.dump_line(output).splitlines() if line and line[0].isdigit()]
    assert [row[1] for row in rows] == words and {row[3] for row in rows} == {"_"}
    gold = next(iter(read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu")))
    instance = words_only._dataset_reader.text_to_instance(gold.words, gold.upos)
    (written,) = words_only.predict_batch_instance([instance])
    assert written["sentences"][0]["upos"] == gold.upos


def test_a_sentence_column_that_is_not_one_value_a_word_is_refused():
    from green_nlp.runtime.conllu_output import sentence_to_conllu

    sentence = {"words": ["a", "b", "c", "d", "e"], "heads": [0, 1, 1, 1, 1], "deprels": ["root"] + ["dep"] * 4}
    with pytest.raises(ValueError, match="the sentence's 'upos' is the string 'None', not one value for each of its 5"):
        sentence_to_conllu({**sentence, "upos": "None"})
    with pytest.raises(ValueError, match="'lemmas' is 2 values, not one value for each of its 5 words"):
        sentence_to_conllu({**sentence, "lemmas": ["a", "b"]})


def test_a_conllu_row_given_as_raw_text_is_refused_saying_how_to_read_conllu(predictor):
    """Without --use-dataset-reader, each row of a CoNLL-U file was parsed as a sentence of its columns."""
    for line in ["1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_", "# text = The cat sat."]:
        with pytest.raises(ValueError, match="looks like CoNLL-U, .* read a CoNLL-U file with --use-dataset-reader"):
            predictor.load_line(line)
    assert predictor.load_line("1 cat sat on 2 mats")["sentence"] == "1 cat sat on 2 mats"
