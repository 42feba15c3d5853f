"""The int8 export quantizes the operators the family names: the DAN's n-gram table (`Gather`)
becomes 8-bit, not only its matrix products (the default list)."""

import numpy as np
import onnx
import torch
from allennlp.data import Vocabulary
from onnx import numpy_helper

from green_nlp.commands.archive_writing import write_archive
from green_nlp.export import export_archive
from green_nlp.models.ngram_dan import NgramDan

NGRAMS = ["good", "bad", "not good", "very bad movie", "movie", "plot"]


def _tiny_dan_archive(path):
    torch.manual_seed(0)
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(NGRAMS, "ngrams")
    vocab.add_tokens_to_namespace(["0", "1"], "labels")
    model = NgramDan(vocab, embedding_dim=5, hidden_dim=4)
    config = {
        "dataset_reader": {"type": "ngram_text"},
        "model": {"type": "green_ngram_dan", "embedding_dim": 5, "hidden_dim": 4},
    }
    write_archive(config, vocab, model.state_dict(), str(path))
    return path


def _initializers(path):
    return {t.name: numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}


def test_the_dans_ngram_table_is_int8_in_the_int8_graph(tmp_path):
    folder = export_archive(_tiny_dan_archive(tmp_path / "dan.tar.gz"), tmp_path / "folder")
    table_shape = (len(NGRAMS) + 2, 5)  # padding and OOV rows first
    fp32 = _initializers(folder / "model.onnx")
    int8 = _initializers(folder / "model.int8.onnx")
    assert [a.dtype for a in fp32.values() if a.shape == table_shape] == [np.float32]
    # 8-bit: onnxruntime stores a quantized Gather's data as uint8 with a zero point
    assert [a.dtype.itemsize for a in int8.values() if a.shape == table_shape] == [1]
    int8_bytes = sum(a.nbytes for a in int8.values())
    assert int8_bytes < sum(a.nbytes for a in fp32.values())
