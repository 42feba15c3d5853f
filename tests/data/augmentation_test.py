import random

import pytest

from green_nlp.data.augmentation import MASK_TOKEN, WordSampler, augment_words, augmented_copies, write_augmented_texts
from green_nlp.dataset_readers.text_classification import read_examples
from tests.conftest import FIXTURES

DAN = FIXTURES / "dan"


def test_word_sampler_follows_corpus_frequencies():
    sampler = WordSampler(["a a a b", "a a c c"])  # a: 5, b: 1, c: 2 of 8
    rng = random.Random(0)
    draws = [sampler.draw(rng) for _ in range(8000)]
    assert set(draws) == {"a", "b", "c"}
    assert draws.count("a") / 8000 == pytest.approx(5 / 8, abs=0.03)
    assert draws.count("b") / 8000 == pytest.approx(1 / 8, abs=0.02)


def test_rule_extremes_mask_replace_or_keep_every_word():
    words = ["what", "city", "is", "the", "cafe", "in"]
    sampler = WordSampler(["zzz"])
    rng = random.Random(1)
    assert augment_words(words, rng, sampler, p_mask=1.0, p_replace=0.0, p_ngram=0.0) == [MASK_TOKEN] * 6
    assert augment_words(words, rng, sampler, p_mask=0.0, p_replace=1.0, p_ngram=0.0) == ["zzz"] * 6
    assert augment_words(words, rng, sampler, p_mask=0.0, p_replace=0.0, p_ngram=0.0) == words


def test_ngram_cut_keeps_a_contiguous_span_of_at_most_max_ngram_words():
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    rng = random.Random(2)
    for _ in range(200):
        span = augment_words(words, rng, WordSampler(["x"]), p_mask=0.0, p_replace=0.0, p_ngram=1.0, max_ngram=3)
        assert 1 <= len(span) <= 3
        start = words.index(span[0])
        assert words[start : start + len(span)] == span


def test_copies_are_distinct_differ_from_the_original_and_are_reproducible():
    texts = ["how far is it from denver to aspen ?", "who wrote hamlet ?"]
    sampler = WordSampler(texts)
    first = list(augmented_copies(texts, sampler, copies=5, seed=3))
    assert first == list(augmented_copies(texts, sampler, copies=5, seed=3))
    assert len(first) == len(set(first)) == 10 and not set(first) & set(texts)
    assert first != list(augmented_copies(texts, sampler, copies=5, seed=4))


def test_written_copies_come_from_the_training_part_only(tmp_path):
    out = tmp_path / "augmented.txt"
    count = write_augmented_texts(
        str(DAN / "sst2_train.tsv"),
        str(out),
        copies=3,
        split="train",
        dev_every=4,
        p_mask=0.0,
        p_replace=0.0,
        p_ngram=1.0,
        max_ngram=2,
    )
    lines = out.read_text(encoding="utf-8").splitlines()
    assert count == len(lines) > 0 and not (tmp_path / "augmented.txt.partial").exists()
    examples = list(read_examples(DAN / "sst2_train.tsv"))
    train_words = {w for i, e in enumerate(examples) if (i + 1) % 4 for w in e.text.split()}
    dev_only = {w for i, e in enumerate(examples) if not (i + 1) % 4 for w in e.text.split()} - train_words
    assert dev_only, "the fixture must have words seen only in the dev part for this test to bite"
    assert not {w for line in lines for w in line.split()} & dev_only


@pytest.mark.parametrize(
    "settings, message",
    [({"p_mask": 1.5}, "p_mask"), ({"p_mask": 0.6, "p_replace": 0.6}, "<= 1"), ({"max_ngram": 0}, "max_ngram")],
)
def test_bad_settings_are_refused(tmp_path, settings, message):
    with pytest.raises(ValueError, match=message):
        write_augmented_texts(str(DAN / "sst2_train.tsv"), str(tmp_path / "out.txt"), **settings)


def test_an_empty_corpus_is_refused(tmp_path):
    empty = tmp_path / "empty.tsv"
    empty.write_text("label\tsentence\n")
    with pytest.raises(ValueError, match=r"empty.tsv:1: file contains no examples"):
        write_augmented_texts(str(empty), str(tmp_path / "out.txt"))


def test_max_examples_augments_only_the_first_texts(tmp_path):
    out = tmp_path / "first.txt"
    write_augmented_texts(
        str(DAN / "sst2_train.tsv"),
        str(out),
        copies=2,
        max_examples=3,
        p_mask=0.0,
        p_replace=0.0,
        p_ngram=1.0,
        max_ngram=1,
    )
    first_words = {w for e in list(read_examples(DAN / "sst2_train.tsv"))[:3] for w in e.text.split()}
    lines = out.read_text(encoding="utf-8").splitlines()
    assert 0 < len(lines) <= 6 and {w for line in lines for w in line.split()} <= first_words
