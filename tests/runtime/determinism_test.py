"""The shipped int8 models answer a text the same whatever is batched with it (issue 43, item 1).

2,000 texts recombined from the fixture sentences (no data set needed), run at batch sizes 1, 7, 32
and 256, sort windows 32 and 512 and 1 or 2 onnxruntime threads: every run's output must be the
same bytes. Before `green_nlp.export.deterministic_int8`, int8 activation scales were computed per
model call and these runs differed.
"""

import json
import random
from functools import cache

import pytest

from green_nlp.runtime import load
from tests.conftest import FIXTURES

BATCHES = (1, 7, 32, 256)
WINDOWS = (32, 512)
THREADS = (1, 2)


@cache
def fixture_words() -> list[list[str]]:
    """Sentences of the fixtures, as word lists: the raw-text lines and the SST-2 fixture texts."""
    lines = (FIXTURES / "raw_text.txt").read_text(encoding="utf-8").splitlines()
    for name in ("sst2_train.tsv", "sst2_dev.tsv"):
        rows = (FIXTURES / "dan" / name).read_text(encoding="utf-8").splitlines()[1:]
        lines += [row.split("\t", 1)[1] for row in rows if "\t" in row]
    return [line.split() for line in lines if line.strip()]


@cache
def texts(count: int = 2000) -> list[list[str]]:
    """`count` word lists of 1-40 words: pieces of one to four fixture sentences joined, seeded."""
    rng = random.Random(43)
    sentences = fixture_words()
    out = []
    for _ in range(count):
        words: list[str] = []
        for _ in range(rng.randint(1, 4)):
            sentence = rng.choice(sentences)
            start = rng.randint(0, len(sentence) - 1)
            words += sentence[start : rng.randint(start + 1, len(sentence))]
        out.append(words[: rng.randint(1, 40)])
    return out


def test_the_texts_vary_in_length_and_content():
    lengths = {len(words) for words in texts()}
    assert len(texts()) == 2000 and min(lengths) == 1 and max(lengths) >= 20
    assert len({" ".join(words) for words in texts()}) > 1500


def _classifier_output(threads: int, batch: int) -> str:
    nlp = load("en-sst2-sentiment", precision="int8", threads=threads)
    lines = [" ".join(words) for words in texts()]
    return "\n".join(json.dumps(c.to_json()) for c in nlp.classify_many(lines, batch_size=batch))


def test_the_classifier_gives_the_same_bytes_at_any_batch_and_thread_count():
    expected = _classifier_output(1, 1)
    for threads in THREADS:
        for batch in BATCHES:
            got = _classifier_output(threads, batch)
            assert got == expected, f"classifier output changed at batch {batch}, {threads} thread(s)"


def _parser_output(nlp, batch: int, window: int) -> str:
    sentences = nlp.parse_sentences([(words, None) for words in texts()], batch_size=batch, sort_window=window)
    return "".join(sentence.to_conllu() for sentence in sentences)


@pytest.mark.parametrize("threads", THREADS)
def test_the_parser_gives_the_same_bytes_at_any_batch_window_and_thread_count(threads):
    expected = _parser_output(load("en-ewt-parser", precision="int8", threads=1), 1, 32)
    nlp = load("en-ewt-parser", precision="int8", threads=threads)
    # two threads on a two-core machine are slow: there, the smallest and largest batch of each window
    for window in WINDOWS:
        for batch in BATCHES if threads == 1 else (7, 256):
            if (threads, batch, window) == (1, 1, 32):
                continue
            got = _parser_output(nlp, batch, window)
            assert got == expected, f"parser output changed at batch {batch}, window {window}, {threads} thread(s)"


def test_raw_text_parses_the_same_in_one_batch_and_one_by_one():
    """`parse_many` (spaCy segmentation, the CLI's path) at batch 1 against batch 256."""
    nlp = load("en-ewt-parser", precision="int8", threads=1)
    lines = [" ".join(words) for words in texts()[:300]]
    one = [doc.to_conllu() for doc in nlp.parse_many(lines, batch_size=1, sort_window=1)]
    many = [doc.to_conllu() for doc in nlp.parse_many(lines, batch_size=256, sort_window=512)]
    assert one == many
