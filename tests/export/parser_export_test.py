"""`allennlp green-export` of the biaffine parser, and the runtime's answers against the predictor's."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from allennlp.common.checks import ConfigurationError
from allennlp.predictors import Predictor

from green_nlp.dataset_readers import read_conllu
from green_nlp.export.common import model_family, read_model_card, sha256_of
from green_nlp.runtime import load
from green_nlp.runtime.parser_decoding import is_tree
from tests.conftest import FIXTURES, REPO_ROOT
from tests.export.exported_models import RAW_TEXT_CARD

UD_FIXTURES = [
    FIXTURES / "ud" / name for name in ("synthetic-tiny.conllu", "synthetic-dev.conllu", "synthetic-train.conllu")
]
PICKLE_HEADERS = [bytes([0x80, protocol]) for protocol in range(2, 6)]


def _gold_sentences():
    return [sentence for path in UD_FIXTURES for sentence in read_conllu(path)]


def _raw_lines():
    lines = (FIXTURES / "raw_text.txt").read_text(encoding="utf-8").splitlines()
    return lines + [" ".join(sentence.words) for sentence in read_conllu(UD_FIXTURES[1])]


@pytest.mark.parametrize("name", ["teacher", "quickstart", "all_features"])
def test_folder_holds_only_onnx_and_json_and_no_pickle(parser_folders, parser_archives, name):
    folder = parser_folders[name]
    encoder = ["chars.int8.onnx", "chars.onnx"] if name != "teacher" else []  # a character CNN's own graphs
    assert sorted(path.name for path in folder.iterdir()) == [
        *encoder,
        "green_model.json",
        "model.int8.onnx",
        "model.onnx",
    ]
    for path in folder.iterdir():
        head = path.read_bytes()[:2]
        assert head not in PICKLE_HEADERS and head != b"PK", f"{path.name} looks like a pickle or a torch zip"
    meta = json.loads((folder / "green_model.json").read_text())
    assert meta["format_version"] == 1 and meta["family"] == "parser"
    assert meta["files"] == {"fp32": "model.onnx", "int8": "model.int8.onnx"}
    assert meta["source_archive_sha256"] == sha256_of(parser_archives[name])


def test_card_figures_and_license_go_into_the_metadata(parser_folders):
    card = json.loads((parser_folders["quickstart"] / "green_model.json").read_text())["card"]
    assert card == read_model_card(RAW_TEXT_CARD)
    assert card["license"] == "CC BY-SA 4.0"
    assert card["metrics"]["LAS"] == "83.78" and card["metrics"]["UAS"] == "87.22"
    assert json.loads((parser_folders["teacher"] / "green_model.json").read_text())["card"] is None


def test_onnx_graphs_have_dynamic_batch_and_length_and_opset_17(parser_folders):
    import onnx

    def inputs(name):
        proto = onnx.load(str(parser_folders["all_features"] / name))
        assert max(entry.version for entry in proto.opset_import if entry.domain in ("", "ai.onnx")) >= 17
        return {
            tensor.name: [d.dim_param or d.dim_value for d in tensor.type.tensor_type.shape.dim]
            for tensor in proto.graph.input
        }

    assert inputs("chars.onnx") == {"char_ids": ["rows", "characters"]}
    main = inputs("model.onnx")
    assert len(main.pop("char_vectors")) == 2  # (distinct words, vector): the encoder's output
    assert main == {"word_ids": ["batch", "words"], "upos_ids": ["batch", "words"], "char_index": ["batch", "words"]}


def test_raw_text_runtime_equals_predictor_on_every_fixture_line(parser_folders, parser_archives):
    predictor = Predictor.from_path(str(parser_archives["quickstart"]), "green_dependency_parser")
    nlp = load(parser_folders["quickstart"], precision="fp32", threads=1)
    lines = _raw_lines()
    expected = [predictor.predict_json(predictor.load_line(line)) for line in lines]
    assert [doc.to_json() for doc in nlp.parse_many(lines, batch_size=7)] == expected
    for line, record in zip(lines[:5], expected):
        assert nlp.parse(line).to_conllu() == predictor.dump_line(record)
    assert any(len(record["sentences"]) > 1 for record in expected)  # sentence splitting is covered


@pytest.mark.parametrize("name", ["teacher", "all_features", "words_only"])
def test_gold_upos_runtime_equals_predictor_on_every_fixture_sentence(parser_folders, parser_archives, name):
    predictor = Predictor.from_path(str(parser_archives[name]), "green_dependency_parser")
    nlp = load(parser_folders[name], precision="fp32", threads=1)
    sentences = _gold_sentences()
    expected = predictor.predict_batch_json([{"words": s.words, "upos": s.upos} for s in sentences])
    got = [{"sentences": [parsed.to_json()]} for parsed in nlp.parse_sentences([(s.words, s.upos) for s in sentences])]
    assert got == expected
    assert nlp.parse_tokens(sentences[0].words, sentences[0].upos).to_conllu() == predictor.dump_line(expected[0])


def test_the_equality_covers_the_maximum_spanning_tree_path(parser_folders):
    """The barely trained all-features model's greedy heads are often not trees, so the test above
    compares the MST decoding and the relabelling of words whose head it changed."""
    nlp = load(parser_folders["all_features"], precision="fp32", threads=1)
    not_trees = 0
    for sentence in _gold_sentences()[:40]:
        feed = nlp.inputs.feed([sentence.words], [sentence.upos])
        arc_scores = nlp.session.run(["arc_scores"], feed)[0][0]
        not_trees += not is_tree(arc_scores[1:].argmax(-1).tolist())
    assert not_trees >= 5


def _float_weight_bytes(path: Path) -> int:
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    return sum(
        numpy_helper.to_array(tensor).nbytes
        for tensor in graph.initializer
        if tensor.data_type == onnx.TensorProto.FLOAT
    )


def test_int8_graph_stores_8_bit_weights_and_mostly_agrees(parser_folders):
    from green_nlp.runtime.parser_agreement import int8_agreement, read_conllu_words

    folder = parser_folders["teacher"]
    # the weights are 8-bit: the float initializers shrink to under half (the file as a whole may not on a model
    # this tiny: pinning the LSTMs' quantization ranges adds a fixed few KB of nodes and constants)
    assert _float_weight_bytes(folder / "model.int8.onnx") < 0.5 * _float_weight_bytes(folder / "model.onnx")
    agreement = int8_agreement(folder, read_conllu_words(UD_FIXTURES[1]))
    assert agreement["words"] == sum(len(s.words) for s in read_conllu(UD_FIXTURES[1]))
    assert agreement["heads"] >= 0.95 and agreement["heads_and_labels"] >= 0.95


def test_a_model_of_another_kind_is_refused_naming_its_type(tmp_path):
    from green_nlp.export import export_archive

    with pytest.raises(ConfigurationError, match="'green_dense_lm'"):
        export_archive(FIXTURES / "ldnet" / "archives" / "lm_forward.tar.gz", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_family_without_an_exporter_says_so(monkeypatch, parser_archives):
    from green_nlp.export import common
    from green_nlp.export.common import family_module, load_for_export

    model, _ = load_for_export(parser_archives["teacher"])
    monkeypatch.setitem(common.FAMILY_MODULES, "parser", "no_such_family_module")
    with pytest.raises(ConfigurationError, match="exporting 'green_biaffine_parser' is not supported yet"):
        family_module(model_family(model), model)


def test_a_parser_part_the_runtime_cannot_run_is_named(tmp_path, parser_archives):
    """A GRU encoder: the exporter names it instead of writing a graph the runtime would get wrong."""
    from allennlp.common import Params
    from allennlp.models import Model

    from green_nlp.export.common import load_for_export
    from green_nlp.export.parser import export

    model, config = load_for_export(parser_archives["teacher"])
    params = config.duplicate().as_dict(quiet=True)["model"]
    params["encoder"]["type"] = "gru"
    gru_model = Model.from_params(vocab=model.vocab, params=Params(params)).eval()
    with pytest.raises(ConfigurationError, match="encoder GruSeq2SeqEncoder"):
        export(gru_model, config, tmp_path)
    assert not (tmp_path / "model.onnx").exists()


def test_green_export_command_writes_a_folder_the_runtime_loads(tmp_path):
    output = tmp_path / "teacher"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "green-export",
            str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"),
            str(output),
            "--card",
            str(REPO_ROOT / "tests" / "export" / "cards" / "parser_ud_ewt_full.md"),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    # one line of result; AllenNLP's parameter log and torch's tracer warnings (some 160 lines) only with --verbose
    assert result.stdout.splitlines() == [
        f"exported {FIXTURES / 'archives' / 'tiny_parser_teacher.tar.gz'} -> {output}"
    ]
    assert "allennlp.common.params" not in result.stderr and "TracerWarning" not in result.stderr
    assert "shape_type_inference" not in result.stderr  # torch's C++ warnings for the packed LSTM too
    meta = json.loads((output / "green_model.json").read_text())
    assert meta["card"]["file"] == "parser_ud_ewt_full.md" and meta["card"]["metrics"]["LAS"]
    doc = load(output).parse_tokens(
        ["the", "cat", "sees", "a", "dog", "."], ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"]
    )
    assert len(doc.sentences[0].heads) == 6 and doc.sentences[0].heads.count(0) == 1
    assert np.all(np.array(doc.sentences[0].heads) <= 6)


def test_model_family_refuses_other_models():
    from allennlp.data import Vocabulary
    from allennlp.models import BasicClassifier
    from allennlp.modules.seq2vec_encoders import BagOfEmbeddingsEncoder
    from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
    from allennlp.modules.token_embedders import Embedding

    vocab = Vocabulary({"tokens": {"a": 1}, "labels": {"x": 1}})
    model = BasicClassifier(
        vocab, BasicTextFieldEmbedder({"tokens": Embedding(2, num_embeddings=3)}), BagOfEmbeddingsEncoder(2)
    )
    with pytest.raises(ConfigurationError, match="'basic_classifier'"):
        model_family(model)


def test_labels_at_heads_the_tree_changed_are_the_models_labels_at_those_heads(parser_folders, parser_archives):
    """The runtime relabels a word whose head the MST moved with the exported label biaffine;
    at arbitrary heads its label scores must be the model's `label_scores`."""
    import torch

    from green_nlp.export.common import load_for_export

    model, _ = load_for_export(parser_archives["all_features"])
    nlp = load(parser_folders["all_features"], precision="fp32", threads=1)
    rng = np.random.default_rng(0)
    for sentence in _gold_sentences()[:10]:
        n = len(sentence.words)
        feed = nlp.inputs.feed([sentence.words], [sentence.upos])
        label_dep, label_head = nlp.session.run(["label_dep", "label_head"], feed)
        heads = rng.integers(0, n + 1, size=n + 1)
        ours = nlp._label_scores(label_dep[0], label_head[0, heads])
        with torch.no_grad():
            scores = {"label_dep": torch.from_numpy(label_dep), "label_head": torch.from_numpy(label_head)}
            theirs = model.label_scores(scores, torch.from_numpy(heads).unsqueeze(0))[0].numpy()
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)
        assert (ours.argmax(-1) == theirs.argmax(-1)).all()


def test_root_labels_roots_child_and_no_other_word_in_both_decoders(parser_folders, parser_archives):
    """UD: a word takes `root` exactly when its head is 0; the predictor and the runtime agree and keep it."""
    predictor = Predictor.from_path(str(parser_archives["quickstart"]), "green_dependency_parser")
    nlp = load(parser_folders["quickstart"], precision="fp32", threads=1)
    lines = _raw_lines()
    records = [predictor.predict_json(predictor.load_line(line)) for line in lines]
    assert [doc.to_json() for doc in nlp.parse_many(lines, batch_size=4)] == records
    for tree in (tree for record in records for tree in record["sentences"]):
        assert [rel == "root" for rel in tree["deprels"]] == [head == 0 for head in tree["heads"]]


def test_the_runtime_keeps_root_on_roots_child_when_root_scores_best_everywhere(parser_folders):
    """An undertrained model whose best label is `root` for every word: only ROOT's child keeps it."""
    nlp = load(parser_folders["quickstart"], precision="fp32", threads=1)
    root = nlp.deprels.index("root")
    n, labels = 4, len(nlp.deprels)
    weight = np.zeros_like(nlp.label_weight())
    weight[root, -1, -1] = 5.0  # the bias-bias entry: root best at every head
    weight[(root + 1) % labels, -1, -1] = 1.0  # the second best
    nlp._label_weight = weight
    arc_scores = np.full((1, n + 1, n + 1), -10.0, dtype=np.float32)
    for dep, head in enumerate([2, 0, 2, 3], start=1):  # a tree: word 2 on ROOT
        arc_scores[0, dep, head] = 10.0
    greedy_labels = np.full((1, n + 1), root)
    dim = weight.shape[1] - 1
    label_dep = np.zeros((1, n + 1, dim), dtype=np.float32)
    trees = nlp._decode([(["a", "b", "c", "d"], None, None)], arc_scores, greedy_labels, label_dep, label_dep.copy())
    assert trees[0].heads == [2, 0, 2, 3]
    assert trees[0].deprels == [nlp.deprels[(root + 1) % labels], "root"] + [nlp.deprels[(root + 1) % labels]] * 2
