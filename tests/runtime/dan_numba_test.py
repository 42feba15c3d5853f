"""The numba engine of the n-gram DAN: the onnxruntime engine's labels and n-gram counts, its
probabilities to float32 rounding, one answer per text whatever the batch, clear refusals."""

import json
import subprocess
import sys

import numpy as np
import pytest

from green_nlp.runtime import load
from green_nlp.runtime.dan_graph_weights import GraphLayoutError, read_dan_weights
from green_nlp.runtime.errors import InputFailure, ModelFolderError
from green_nlp.settings import data_path
from tests.conftest import REPO_ROOT
from tests.runtime.classifier_test import archive_path, folder, predictable_texts  # noqa: F401 (fixtures)

pytest.importorskip("numba", reason="the numba engine needs numba (pip install 'green_nlp[numba]')")

SHIPPED = "en-sst2-sentiment"
# float32 sums in another order than onnxruntime's: a few units in the last place of a probability
PROBABILITY_TOLERANCE = 1e-6


def agree(texts, first, second):
    """Same label and n-gram count for every text, probabilities within the tolerance."""
    for text, a, b in zip(texts, first, second):
        assert (a.label, a.num_ngrams) == (b.label, b.num_ngrams), text
        assert list(a.probabilities) == list(b.probabilities)
        assert np.allclose(list(a.probabilities.values()), list(b.probabilities.values()), atol=PROBABILITY_TOLERANCE)
        assert np.allclose(a.logits, b.logits, atol=1e-5)


@pytest.fixture(scope="module")
def shipped():
    return load(SHIPPED), load(SHIPPED).set_engine("numba")


@pytest.mark.parametrize("batch_size", [1, 3, 32])
def test_numba_engine_agrees_with_onnxruntime_on_tricky_texts(shipped, batch_size):
    onnx_engine, numba_engine = shipped
    texts = predictable_texts()  # case, digits, non-ASCII, the batch separator, a very long text ...
    assert numba_engine.engine == "numba"
    agree(
        texts,
        list(onnx_engine.classify_many(texts, batch_size=batch_size)),
        list(numba_engine.classify_many(texts, batch_size=batch_size)),
    )


def test_numba_engine_gives_one_answer_per_text_whatever_the_batch(shipped):
    _, numba_engine = shipped
    texts = predictable_texts()
    alone = [numba_engine.classify(text) for text in texts]
    for batch_size in (2, 7, 64):
        assert list(numba_engine.classify_many(texts, batch_size=batch_size)) == alone  # bit for bit


def test_every_sampled_vocabulary_ngram_is_found(shipped):
    """The words' table and the n-gram filter never turn a stored n-gram away: each of 3,000
    n-grams of the vocabulary (every 67th), alone as a text, gets onnxruntime's count (at least 1)."""
    onnx_engine, numba_engine = shipped
    ngrams = (REPO_ROOT / "pretrained" / SHIPPED / "ngrams.txt").read_text(encoding="utf-8").splitlines()[::67]
    assert len(ngrams) > 2900
    counts = [result.num_ngrams for result in numba_engine.classify_many(ngrams, batch_size=64)]
    assert counts == [result.num_ngrams for result in onnx_engine.classify_many(ngrams, batch_size=64)]
    assert min(counts) >= 1


def test_numba_engine_keeps_the_runtimes_input_checks(shipped):
    _, numba_engine = shipped
    results = list(numba_engine.classify_many(["a good film", "", "bad\x00film", "zzzz qqqq"], batch_size=4))
    assert [type(result) for result in results[1:3]] == [InputFailure, InputFailure]
    assert results[3].no_known_features and not results[0].no_known_features


def test_numba_engine_runs_another_exported_dan_int8_only(folder):  # noqa: F811 (the fixture)
    texts = predictable_texts()
    int8 = load(folder, precision="int8")
    agree(
        texts,
        list(int8.classify_many(texts)),
        list(load(folder, precision="int8").set_engine("numba").classify_many(texts)),
    )
    with pytest.raises(ModelFolderError, match="model.onnx is not the deterministic int8 DAN graph"):
        load(folder, precision="fp32").set_engine("numba")


@pytest.mark.skipif(not (data_path() / "cls" / "sst2").is_dir(), reason="needs SST-2 under GREEN_NLP_DATA")
def test_numba_engine_agrees_on_sst2_dev_and_test(shipped):
    texts = []
    for split in ("dev", "test"):
        lines = (data_path() / "cls" / "sst2" / f"{split}.tsv").read_text(encoding="utf-8").splitlines()[1:]
        texts += [line.split("\t")[1] for line in lines]
    onnx_engine, numba_engine = shipped
    agree(texts, list(onnx_engine.classify_many(texts)), list(numba_engine.classify_many(texts)))


def test_unknown_engine_is_refused(shipped):
    with pytest.raises(ValueError, match="engine must be one of onnxruntime, numba, got 'numpy'"):
        shipped[0].set_engine("numpy")


def test_a_graph_of_another_layout_is_refused():
    with pytest.raises(GraphLayoutError, match="not the deterministic int8 DAN graph.*use the onnxruntime engine"):
        read_dan_weights(REPO_ROOT / "pretrained" / "en-ewt-parser" / "model.int8.onnx")


def test_missing_numba_names_the_extra(monkeypatch):
    import green_nlp.runtime

    # as if numba were absent: the kernel module cannot be imported (nor found on its package)
    monkeypatch.setitem(sys.modules, "green_nlp.runtime.dan_numba_kernel", None)
    monkeypatch.delattr(green_nlp.runtime, "dan_numba_kernel", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'green_nlp\[numba\]'"):
        load(SHIPPED).set_engine("numba")


def test_cli_engine_numba_writes_the_same_labels(tmp_path):
    source = tmp_path / "texts.txt"
    source.write_text("a gripping , funny film\n\nthe plot is a mess\nzzzz qqqq\n", encoding="utf-8")
    records = {}
    for engine in ("onnxruntime", "numba"):
        out = tmp_path / f"{engine}.jsonl"
        command = [sys.executable, "-m", "green_nlp.cli", "classify", SHIPPED, str(source), "-o", str(out)]
        done = subprocess.run([*command, "--engine", engine], capture_output=True, text=True, cwd=REPO_ROOT)
        assert done.returncode == 0, done.stderr
        records[engine] = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    for a, b in zip(records["onnxruntime"], records["numba"]):
        assert {k: v for k, v in a.items() if k not in ("probs", "logits")} == {
            k: v for k, v in b.items() if k not in ("probs", "logits")
        }
    assert len(records["numba"]) == 4 and "error" in records["numba"][1]


def test_numba_engine_starts_without_the_onnx_package():
    """Importing onnx (its ml_dtypes set-up) took more than half of the engine's start: the engine
    reads the graph with protobuf, so a venv without onnx runs it, and the runtime never imports it."""
    script = (
        "import sys; sys.modules['onnx'] = None\n"  # any `import onnx` now fails
        "from green_nlp.runtime import load\n"
        f"model = load({SHIPPED!r}).set_engine('numba')\n"
        "print(model.classify('a fine film').label, 'ml_dtypes' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO_ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [load(SHIPPED).classify("a fine film").label, "False"]
