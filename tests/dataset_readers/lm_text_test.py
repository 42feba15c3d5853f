import gzip
import json
from collections import defaultdict

import pytest
from allennlp.data import Token

from green_nlp.dataset_readers.lm_corpus import column_sentences, write_review_sentences
from green_nlp.dataset_readers.lm_text import LmTextFormatError, LmTextReader, LmTokenIndexer
from tests.conftest import FIXTURES


def test_lines_are_cut_into_pieces_and_single_words_skipped(tmp_path):
    path = tmp_path / "text.txt"
    path.write_text("a b c d e\n\nlonely\nf g\n")
    pieces = [[t.text for t in i["tokens"].tokens] for i in LmTextReader(max_sequence_length=2).read(str(path))]
    assert pieces == [["a", "b"], ["c", "d"], ["f", "g"]]  # "e" and "lonely" predict nothing
    assert len(list(LmTextReader(max_sequence_length=2, max_instances=2).read(str(path)))) == 2


def test_bytes_that_are_not_utf8_are_named_at_their_line(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes("the film is good\nthe café is good\n".encode("latin-1"))
    with pytest.raises(LmTextFormatError, match=rf"^{path}:2: not valid UTF-8 \(byte 0xe9 at column 8\)"):
        list(LmTextReader().read(str(path)))


@pytest.mark.parametrize("text", ["", "\n\n", "one\nword\nlines\n"])
def test_a_file_without_a_sequence_is_refused(tmp_path, text):
    path = tmp_path / "empty.txt"
    path.write_text(text)
    with pytest.raises(LmTextFormatError, match=rf"^{path}:1: file contains no sequence of two or more words"):
        list(LmTextReader().read(str(path)))


def test_carriage_returns_alone_end_lines(tmp_path):
    path = tmp_path / "mac.txt"
    path.write_bytes(b"a b\rc d\r")
    assert [[t.text for t in i["tokens"].tokens] for i in LmTextReader().read(str(path))] == [["a", "b"], ["c", "d"]]


def test_lm_indexer_counts_nothing():
    counter = defaultdict(lambda: defaultdict(int))
    LmTokenIndexer().count_vocab_items(Token("word"), counter)
    assert not counter


def test_column_sentences_skip_docstart():
    sentences = list(column_sentences(FIXTURES / "ldnet" / "data" / "ner_conll2003_dev.txt"))
    assert len(sentences) == 8 and all("-DOCSTART-" not in s for s in sentences)


def test_review_sentences_keep_the_first_ones_within_the_length_bounds(tmp_path):
    out = tmp_path / "sentences.txt"
    reviews = FIXTURES / "dan" / "imdb_tiny.jsonl.gz"
    assert write_review_sentences(reviews, out, count=2, min_tokens=5, max_tokens=6) == 2
    assert out.read_text().splitlines() == ["i found the film beautifully made", "its ending is dull and boring"]
    assert write_review_sentences(reviews, out, count=100, min_tokens=5, max_tokens=6) == 3
    assert out.read_text().splitlines()[-1] == "its ending is a delight"


def test_review_questions_keep_only_sentences_that_end_in_a_question_mark(tmp_path):
    reviews = tmp_path / "reviews.jsonl.gz"
    with gzip.open(reviews, "wt", encoding="utf-8") as out:
        for text in ("Who made this film? It was awful.<br />Why?", "What a delight it was!"):
            out.write(json.dumps({"text": text}) + "\n")
    questions = tmp_path / "questions.txt"
    assert write_review_sentences(reviews, questions, min_tokens=2, questions_only=True) == 2
    assert questions.read_text().splitlines() == ["Who made this film ?", "Why ?"]
    assert write_review_sentences(reviews, questions, count=10, min_tokens=3, questions_only=True) == 1
