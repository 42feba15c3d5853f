"""`green_nlp.export.dan`: the n-gram DAN's ONNX graph and metadata, checked against the torch model."""

import json

import numpy as np
import onnx
import onnxruntime
import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models.archival import load_archive
from allennlp.nn import Activation
from sklearn.feature_extraction.text import CountVectorizer

from green_nlp.export.dan import analyzer_settings, export, export_onnx
from green_nlp.models.ngram_dan import NgramDan
from tests.dan_helpers import sst2_label_names, tiny_named_dan_run
from tests.export.exported_models import exported
from tests.runtime.pretrained_test import assert_plain_npz

PICKLE_MAGIC = b"\x80"  # protocol 2+ pickles start with PROTO (0x80); torch.save zips start "PK"


@pytest.fixture(scope="module")
def dan_archive():
    return load_archive(str(tiny_named_dan_run() / "model.tar.gz"))


@pytest.fixture(scope="module")
def dan_folder(export_base):
    return exported("dan_named", tiny_named_dan_run() / "model.tar.gz", export_base)


def run_graph(path, ids):
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(["logits", "probs"], {"ngram_ids": np.asarray(ids, dtype=np.int64)})


def test_the_folder_holds_onnx_json_text_and_plain_arrays_only(dan_folder):
    names = sorted(path.name for path in dan_folder.iterdir())
    assert names == ["green_model.json", "model.int8.onnx", "model.onnx", "ngrams.index.npz", "ngrams.txt"]
    for path in dan_folder.iterdir():
        if path.suffix == ".npz":
            assert_plain_npz(path)
            continue
        head = path.read_bytes()[:2]
        assert not head.startswith(PICKLE_MAGIC) and head != b"PK", path.name
        if path.suffix == ".onnx":
            onnx.checker.check_model(str(path))
        else:
            path.read_text(encoding="utf-8")  # plain UTF-8 text
    json.loads((dan_folder / "green_model.json").read_text(encoding="utf-8"))


def test_metadata_has_labels_in_vocabulary_order_and_the_analyzer(dan_folder, dan_archive):
    meta = json.loads((dan_folder / "green_model.json").read_text(encoding="utf-8"))
    vocab = dan_archive.model.vocab
    assert meta["family"] == "classifier" and meta["model_type"] == "green_ngram_dan"
    assert meta["labels"] == [vocab.get_token_from_index(i, "labels") for i in range(vocab.get_vocab_size("labels"))]
    assert sorted(meta["labels"]) == sorted(sst2_label_names().values())
    assert meta["analyzer"] == {
        "type": "sklearn_count_vectorizer_words",
        "token_pattern": r"(?u)\b\w\w+\b",
        "lowercase": True,
        "ngram_range": [1, 4],
    }
    lines = (dan_folder / meta["ngrams"]["file"]).read_text(encoding="utf-8").split("\n")
    assert lines[-1] == "" and len(lines) - 1 == meta["ngrams"]["count"]
    assert lines[:-1] == [vocab.get_token_from_index(i, "ngrams") for i in range(2, vocab.get_vocab_size("ngrams"))]
    # the graph's n-gram table, checked at load against first_id + count; and each list's length
    assert meta["ngrams"]["rows"] == vocab.get_vocab_size("ngrams") == meta["ngrams"]["first_id"] + len(lines) - 1
    assert meta["exported_lengths"] == {"labels": len(meta["labels"])}


def test_the_graph_matches_the_torch_model_including_texts_without_ngrams(dan_folder, dan_archive):
    model = dan_archive.model.eval()
    size = model.vocab.get_vocab_size("ngrams")
    ids = np.array([[2, 3, 5, 5, size - 1], [7, 0, 0, 0, 0], [0, 0, 0, 0, 0]], dtype=np.int64)
    with torch.no_grad():
        expected = model(ngrams=torch.from_numpy(ids))
    logits, probs = run_graph(dan_folder / "model.onnx", ids)
    np.testing.assert_allclose(logits, expected["logits"].numpy(), atol=1e-5)
    np.testing.assert_allclose(probs, expected["probs"].numpy(), atol=1e-6)
    int8_logits, _ = run_graph(dan_folder / "model.int8.onnx", ids)
    assert int8_logits.shape == logits.shape and not np.array_equal(int8_logits, logits)


def tiny_model(activation: str, seed: int = 0) -> NgramDan:
    torch.manual_seed(seed)
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["good", "bad", "not good", "very bad movie"], "ngrams")
    vocab.add_tokens_to_namespace(["a", "b", "c"], "labels")
    model = NgramDan(vocab, embedding_dim=5, hidden_dim=4, activation=Activation.by_name(activation)())
    with torch.no_grad():  # a nonzero padding row must still add nothing, as EmbeddingBag's padding_idx
        model.ngram_embedding.weight[0] = 3.0
    return model.eval()


@pytest.mark.parametrize("activation", ["tanh", "relu", "linear"])
def test_other_activations_and_a_nonzero_padding_row_export_exactly(activation, tmp_path):
    model = tiny_model(activation)
    export_onnx(model, tmp_path / "model.onnx")
    ids = np.array([[2, 5, 0], [3, 4, 4], [0, 0, 0]], dtype=np.int64)
    with torch.no_grad():
        expected = model(ngrams=torch.from_numpy(ids))["logits"].numpy()
    np.testing.assert_allclose(run_graph(tmp_path / "model.onnx", ids)[0], expected, atol=1e-6)
    assert model.ngram_embedding.weight[0, 0].item() == 3.0  # the model itself is left as it was


def test_label_names_of_the_validation_reader_name_the_labels(tmp_path):
    config = {
        "validation_dataset_reader": {"type": "ngram_text", "label_names": {"a": "alpha"}},
        "dataset_reader": {"type": "ngram_text"},
    }
    meta = export(tiny_model("relu"), config, tmp_path)
    assert meta["labels"] == ["alpha", "b", "c"]
    assert (tmp_path / "ngrams.txt").read_text(encoding="utf-8") == "good\nbad\nnot good\nvery bad movie\n"


def test_a_model_read_by_another_reader_is_refused(tmp_path):
    with pytest.raises(ConfigurationError, match="its reader is 'text_classification'"):
        export(tiny_model("relu"), {"dataset_reader": {"type": "text_classification"}}, tmp_path)


def test_analyzer_settings_are_countvectorizers():
    settings = analyzer_settings({"type": "ngram_text", "ngram_range": [2, 3], "lowercase": False})
    reference = CountVectorizer()
    assert settings == {
        "type": "sklearn_count_vectorizer_words",
        "token_pattern": reference.token_pattern,
        "lowercase": False,
        "ngram_range": [2, 3],
    }
