"""`allennlp green-label-teacher` with a parser teacher: raw text -> a parser cache that round-trips,
resumes after a kill to the same file, and refuses another teacher's cache."""

import gzip
import shutil

import numpy as np
import pytest

from green_nlp.commands.green_label_teacher import label_corpus
from green_nlp.data.teacher_cache import TeacherCacheError, file_sha256, read_parser_cache, read_parser_header
from green_nlp.runtime.parser_segmenter import TextSegmenter
from tests.conftest import FIXTURES
from tests.parser_teacher_helpers import minilm_parser_teacher

TEXT = FIXTURES / "raw_text.txt"


@pytest.fixture(scope="module")
def teacher():
    return minilm_parser_teacher()


@pytest.fixture(scope="module")
def full_cache(teacher, tmp_path_factory):
    path = tmp_path_factory.mktemp("silver") / "cache.jsonl"
    count = label_corpus(
        str(teacher), [str(TEXT)], str(path), format="lines", batch_size=2, top_k_heads=3, top_k_labels=2
    )
    return path, count


def test_the_cache_round_trips_the_runtime_sentences_and_the_teacher_distributions(teacher, full_cache):
    path, count = full_cache
    segmenter = TextSegmenter()
    expected = [words for line in TEXT.read_text().splitlines() if line.strip() for _, words in segmenter.segment(line)]
    sentences = list(read_parser_cache(str(path), file_sha256(str(teacher))))
    assert count == len(sentences) == len(expected)
    assert [s.words for s in sentences] == expected
    header = read_parser_header(str(path))
    assert header["top_k_heads"] == 3 and header["top_k_labels"] == 2 and header["upos"]
    for sentence in sentences:
        n, t = len(sentence.words), sentence.targets
        assert t.heads.shape == (n, 3) and t.labels.shape == (n, 3, 2) and t.upos.shape == (n, 2)
        assert sentence.heads.count(0) == 1 and all(0 <= h <= n for h in sentence.heads)  # the 1-best tree
        assert set(sentence.deprels) <= set(header["deprels"]) and set(sentence.upos) <= set(header["upos"])
        for i in range(n):  # probabilities sorted, at most 1, no word its own head
            kept = t.head_probs[i][t.head_probs[i] > 0]
            assert np.all(np.diff(kept) <= 1e-3) and kept.sum() <= 1.0 + 1e-2
            assert (i + 1) not in t.heads[i][t.head_probs[i] > 0]


def test_a_killed_run_resumes_to_the_same_cache(teacher, full_cache, tmp_path):
    path, count = full_cache
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(lines[:3]) + lines[3][: len(lines[3]) // 2], encoding="utf-8")  # torn line
    again = label_corpus(
        str(teacher), [str(TEXT)], str(partial), format="lines", batch_size=2, top_k_heads=3, top_k_labels=2
    )
    assert again == count
    assert partial.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_another_teachers_cache_is_refused(teacher, full_cache, tmp_path):
    path, _ = full_cache
    other = tmp_path / "other_teacher.tar.gz"  # the same model, other bytes: another archive
    other.write_bytes(gzip.compress(gzip.decompress(teacher.read_bytes()), compresslevel=1, mtime=0))
    copy = tmp_path / "cache.jsonl"
    shutil.copy(path, copy)
    with pytest.raises(TeacherCacheError, match="teacher_sha256"):
        label_corpus(str(other), [str(TEXT)], str(copy), format="lines", batch_size=2, top_k_heads=3, top_k_labels=2)
    with pytest.raises(TeacherCacheError, match="another teacher"):
        next(read_parser_cache(str(copy), file_sha256(str(other))))
    with pytest.raises(TeacherCacheError, match="top_k_heads"):
        label_corpus(str(teacher), [str(TEXT)], str(copy), format="lines", batch_size=2, top_k_heads=2, top_k_labels=2)
