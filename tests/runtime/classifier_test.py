"""The torch-free n-gram DAN runtime: same answers as the AllenNLP predictor, exact n-grams, streaming."""

import json
import subprocess
import sys

import numpy as np
import pytest
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor
from sklearn.feature_extraction.text import CountVectorizer

from green_nlp.dataset_readers.text_classification import read_examples
from green_nlp.runtime import load
from green_nlp.runtime.classifier import Classification, padded_parts
from green_nlp.runtime.ngram_extractor import SMALL_BATCH, NgramExtractor, pad
from tests.conftest import REPO_ROOT
from tests.dan_helpers import DAN_FIXTURES, tiny_named_dan_run
from tests.export.exported_models import exported

# texts the tokenizer must treat exactly as CountVectorizer: case, digits, underscores, one-letter
# words, punctuation runs, non-ASCII letters and marks, Greek final sigma, dotted capital I, NUL and
# other control characters, CJK, emoji
TRICKY = [
    "",
    " ",
    "a , ! ?",
    "I",
    "zzzz qqqq",
    "The FILM is WONDERFUL",
    "film_2 is 10/10 -- a 9.5",
    "ÇA ÉTÉ un film naïf, très charmant",
    "ΟΔΟΣ ΣΟΦΟΣ",
    "İstanbul film",
    "the\x00film\x00is good",
    "the film \x00\x00 is good",
    "the\x01film \x01 is a x\x01y good one",  # the batch separator inside a text
    "a b c d e f 1 2 _ x good",  # one-character runs between words
    "the\tfilm\nis\x1cgood\x0bhere",
    "电影 很好 the film",
    "great 🎬 film!!",
    "cafe\u0301 film",
    "don't stop-motion x-y-z 'quoted'",
    "the film is wonderful and charming " * 3,
]


def fixture_texts():
    texts = []
    for name in ("sst2_train.tsv", "sst2_dev.tsv", "trec_tiny.txt", "unlabeled.jsonl"):
        texts += [example.text for example in read_examples(str(DAN_FIXTURES / name))]
    texts += [line.strip() for line in (DAN_FIXTURES / "raw_text.txt").read_text().splitlines()]
    long_text = " ".join(texts) * 40  # a very long text: thousands of n-grams
    return texts + TRICKY + [long_text]


@pytest.fixture(scope="module")
def archive_path():
    return tiny_named_dan_run() / "model.tar.gz"


@pytest.fixture(scope="module")
def folder(archive_path, export_base):
    return exported("dan_named", archive_path, export_base)


def predictable_texts():
    """The fixture texts both take: the predictor and the runtime refuse a NUL in a text (bad input,
    never copied to an output), while the runtime's tokenizer still handles one like CountVectorizer
    (tested below); the runtime refuses an empty text (tests/runtime/input_checks_test.py)."""
    return [text for text in fixture_texts() if "\x00" not in text and text.strip()]


@pytest.fixture(scope="module")
def predicted(archive_path):
    predictor = Predictor.from_archive(load_archive(str(archive_path)), "green_text_classifier")
    for text in fixture_texts():
        if "\x00" in text:
            with pytest.raises(ValueError, match="NUL"):
                predictor.predict_json({"text": text})
    return [predictor.predict_json({"text": text}) for text in predictable_texts()]


@pytest.mark.parametrize("batch_size", [1, SMALL_BATCH - 1, 32])
def test_fp32_answers_are_the_predictors(folder, predicted, batch_size):
    nlp = load(folder, precision="fp32", threads=1)
    results = [c.to_json() for c in nlp.classify_many(predictable_texts(), batch_size=batch_size)]
    assert len(results) == len(predicted)
    for text, got, expected in zip(predictable_texts(), results, predicted):
        assert got["label"] == expected["label"], text
        assert got["label_names"] == expected["label_names"]
        assert got["num_ngrams"] == expected["num_ngrams"], text
        np.testing.assert_allclose(got["probs"], expected["probs"], atol=1e-4, err_msg=text)
        np.testing.assert_allclose(got["logits"], expected["logits"], atol=1e-4, err_msg=text)
    assert sorted(results[0]) == sorted(predicted[0])
    assert any(r["num_ngrams"] == 0 for r in results) and max(r["num_ngrams"] for r in results) > 1000


def test_int8_mostly_agrees_with_fp32(folder):
    texts = predictable_texts()
    fp32 = list(load(folder, precision="fp32").classify_many(texts))
    int8 = list(load(folder, precision="int8").classify_many(texts))
    agreement = np.mean([a.label == b.label for a, b in zip(fp32, int8)])
    worst = max(abs(a.probabilities[k] - b.probabilities[k]) for a, b in zip(fp32, int8) for k in a.probabilities)
    assert agreement >= 0.9 and worst < 0.1, (agreement, worst)


def test_classify_gives_one_result_with_probabilities_by_label(folder):
    nlp = load(folder)
    result = nlp.classify("the film is wonderful and charming")
    assert isinstance(result, Classification)
    assert list(result.probabilities) == nlp.labels
    assert result.label == max(result.probabilities, key=result.probabilities.get)
    assert abs(sum(result.probabilities.values()) - 1.0) < 1e-5
    assert json.loads(json.dumps(result.to_json())) == result.to_json()


def test_classify_many_streams_in_input_order(folder):
    nlp = load(folder)
    texts = fixture_texts()[:20]
    consumed = []

    def source():
        for text in texts:
            consumed.append(text)
            yield text

    stream = nlp.classify_many(source(), batch_size=8)
    first = next(stream)
    assert len(consumed) == 8  # one batch read, not the whole input
    streamed = [first] + list(stream)
    one_by_one = [nlp.classify(text) for text in texts]
    assert [(c.label, c.num_ngrams) for c in streamed] == [(c.label, c.num_ngrams) for c in one_by_one]
    # the same numbers up to summation order (a batch pads rows to its longest)
    np.testing.assert_allclose([c.logits for c in streamed], [c.logits for c in one_by_one], atol=1e-5)


def test_bad_arguments_are_refused(folder):
    nlp = load(folder)
    with pytest.raises(ValueError, match="batch_size must be positive"):
        list(nlp.classify_many(["x"], batch_size=0))
    with pytest.raises(TypeError, match="^text must be a string, got a number"):
        nlp.classify(3)
    assert str(list(nlp.classify_many(["fine", 3]))[1].error) == "texts[1] must be a string, got a number"


def analyzer_ids(texts, vocabulary, ngram_range=(1, 4), lowercase=True, token_pattern=r"(?u)\b\w\w+\b"):
    analyzer = CountVectorizer(
        ngram_range=ngram_range, lowercase=lowercase, token_pattern=token_pattern
    ).build_analyzer()
    lookup = {ngram: i + 2 for i, ngram in enumerate(vocabulary)}
    return [[lookup[g] for g in analyzer(text) if g in lookup] for text in texts]


@pytest.mark.parametrize(
    "settings",
    [{}, {"ngram_range": (2, 3)}, {"lowercase": False}, {"token_pattern": r"(?u)\b\w+\b"}, {"token_pattern": r"\S+"}],
)
@pytest.mark.parametrize("dict_after", [0, 10_000])  # one text: as strings in a dict, or in the batch arrays
def test_ngram_ids_are_countvectorizers_for_every_batch_size(settings, dict_after, monkeypatch):
    monkeypatch.setattr("green_nlp.runtime.ngram_table.DICT_AFTER_TEXTS", dict_after)
    texts = fixture_texts() + TRICKY
    vectorizer = CountVectorizer(**{"ngram_range": (1, 4), **settings})
    vocabulary = list(vectorizer.fit(texts[::2]).get_feature_names_out())  # some n-grams unknown
    extractor = NgramExtractor(vocabulary, **{"ngram_range": (1, 4), **settings})
    expected = analyzer_ids(texts, vocabulary, **{"ngram_range": (1, 4), **settings})
    for batch_size in (1, 2, SMALL_BATCH, 7, len(texts)):
        got = []
        for start in range(0, len(texts), batch_size):
            ids, counts = extractor.ids(texts[start : start + batch_size])
            rows = pad(ids, counts)
            got += [row[:count].tolist() for row, count in zip(rows, counts)]
            assert all((row[count:] == 0).all() for row, count in zip(rows, counts))
        assert got == expected, batch_size


def test_a_very_long_text_does_not_pad_its_whole_batch():
    counts = np.array([3, 100_000, 5, 0] + [4] * 40)
    parts = padded_parts(counts)
    assert sorted(np.concatenate(parts).tolist()) == list(range(len(counts)))
    assert max(len(rows) * max(1, counts[rows].max()) for rows in parts) <= 4 * counts.sum()
    assert len(padded_parts(np.array([3, 5, 0]))) == 1


def test_the_runtime_imports_neither_torch_nor_allennlp_nor_sklearn(folder):
    script = (
        "import sys, json\n"
        "import green_nlp.runtime as runtime\n"
        f"nlp = runtime.load({str(folder)!r}, threads=1)\n"
        "result = nlp.classify('the film is wonderful')\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'allennlp', 'sklearn', 'spacy'))\n"
        "print(json.dumps({'heavy': heavy, 'label': result.label}))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["heavy"] == [] and report["label"] in ("negative", "positive")


def test_a_folder_with_or_without_its_ngram_index_classifies_alike(folder, tmp_path):
    import shutil

    from green_nlp.export.ngram_index import add_to_folder
    from green_nlp.runtime.errors import ModelFolderError
    from green_nlp.runtime.model_folder import record_file_hashes
    from green_nlp.runtime.ngram_index import INDEX_FILE

    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    assert meta["ngrams"]["index"] == {"file": INDEX_FILE, "version": 1}  # the exporter writes it
    texts = predictable_texts()
    expected = [c.to_json() for c in load(folder, precision="fp32").classify_many(texts)]
    plain = tmp_path / "plain"
    shutil.copytree(folder, plain)
    (plain / INDEX_FILE).unlink()
    del meta["ngrams"]["index"], meta["sha256"][INDEX_FILE]
    (plain / "green_model.json").write_text(json.dumps(meta), encoding="utf-8")
    assert [c.to_json() for c in load(plain, precision="fp32").classify_many(texts)] == expected
    add_to_folder(plain)  # an older folder gets its index
    assert [c.to_json() for c in load(plain, precision="fp32").classify_many(texts)] == expected
    np.savez(plain / INDEX_FILE, version=np.array(1))  # a broken index, its hash re-recorded
    record_file_hashes(plain)
    with pytest.raises(ModelFolderError, match=r"has no source_sha256, words, digits, lengths array; rebuild it with"):
        load(plain)


def test_one_text_lookups_read_the_list_only_while_the_index_numbers_it(folder, tmp_path, monkeypatch):
    """One text's lookup builds its dict from `ngrams.txt` (faster than from the index) only while the
    file is the list the index was checked against at load; else from the index itself."""
    import shutil

    from green_nlp.runtime.ngram_index import NgramIndex

    monkeypatch.setattr("green_nlp.runtime.ngram_table.DICT_AFTER_TEXTS", 0)
    texts = predictable_texts()
    expected = [c.to_json() for c in load(folder, precision="int8").classify_many(texts, batch_size=32)]
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    intact, changed = load(copy, precision="int8"), load(copy, precision="int8")
    rebuilt = NgramIndex.ngrams
    with monkeypatch.context() as patched:
        patched.setattr(NgramIndex, "ngrams", lambda self: pytest.fail("rebuilt from the index"))
        assert [intact.classify(text).to_json() for text in texts] == expected
    lines = (copy / "ngrams.txt").read_text(encoding="utf-8").splitlines()
    (copy / "ngrams.txt").write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")  # changed after load
    calls = []
    monkeypatch.setattr(NgramIndex, "ngrams", lambda self: calls.append(1) or rebuilt(self))
    assert [changed.classify(text).to_json() for text in texts] == expected
    assert calls == [1]


def test_the_index_command_refuses_a_folder_it_cannot_index_in_one_line(tmp_path):
    parser_like = tmp_path / "parser"
    parser_like.mkdir()
    (parser_like / "green_model.json").write_text(json.dumps({"family": "parser"}), encoding="utf-8")
    for folder, reason in ((parser_like, "not an n-gram DAN folder"), (tmp_path / "missing", "No such file")):
        result = subprocess.run(
            [sys.executable, "-m", "green_nlp.export.ngram_index", str(folder)], capture_output=True, text=True
        )
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr.startswith("python -m green_nlp.export.ngram_index: error: ") and reason in result.stderr


def test_the_predictor_and_the_runtime_average_sentences_alike(archive_path, folder):
    texts = predictable_texts()
    documents = [f"{a.strip()}. {b.strip()}! {c.strip()}" for a, b, c in zip(texts[0::3], texts[1::3], texts[2::3])]
    documents += ["??? . a fine film", texts[0]]  # one sentence without a known n-gram; one sentence only
    predictor = Predictor.from_archive(
        load_archive(str(archive_path)), "green_text_classifier", extra_args={"split_sentences": True}
    )
    expected = predictor.predict_batch_json([{"text": document} for document in documents])
    alone = predictor.predict_json({"text": documents[0]})  # torch's batch of one: the last bits may differ
    assert alone["label"] == expected[0]["label"] and alone["num_ngrams"] == expected[0]["num_ngrams"]
    np.testing.assert_allclose(alone["logits"], expected[0]["logits"], atol=1e-6)
    nlp = load(folder, precision="fp32", threads=1)
    got = [c.to_json() for c in nlp.classify_many(documents, split_sentences=True)]
    for document, mine, theirs in zip(documents, got, expected):
        assert mine["label"] == theirs["label"] and mine["num_ngrams"] == theirs["num_ngrams"], document
        np.testing.assert_allclose(mine["logits"], theirs["logits"], atol=1e-4, err_msg=document)
        np.testing.assert_allclose(mine["probs"], theirs["probs"], atol=1e-4, err_msg=document)
    whole = Predictor.from_archive(load_archive(str(archive_path)), "green_text_classifier")
    assert [whole.predict_json({"text": d})["logits"] for d in documents[:3]] != [e["logits"] for e in expected[:3]]
    with pytest.raises(ConfigurationError, match="split_sentences must be true or false"):
        Predictor.from_archive(
            load_archive(str(archive_path)), "green_text_classifier", extra_args={"split_sentences": "yes"}
        )
