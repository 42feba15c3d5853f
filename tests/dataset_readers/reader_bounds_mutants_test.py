"""Reader bounds pinned at their edges: HEAD may be the last word but not one past it, and a CoNLL
tagging row must have exactly the first row's columns, no more and no fewer."""

import re

import pytest

from green_nlp.dataset_readers.conll_tagging import ConllTaggingFormatError, read_columns
from green_nlp.dataset_readers.conllu_sentences import ConlluFormatError, read_conllu


def _at(path) -> str:
    """The start of an error message: the file, escaped for `match`."""
    return "^" + re.escape(str(path))


def _conllu(heads):
    rows = [
        f"{i}\tw{i}\t_\tNOUN\t_\t_\t{head}\t{'root' if head == '0' else 'dep'}\t_\t_"
        for i, head in enumerate(heads, start=1)
    ]
    return "# text = w1 w2 w3\n" + "\n".join(rows) + "\n\n"


def test_head_equal_to_the_word_count_is_read(tmp_path):
    path = tmp_path / "ok.conllu"
    path.write_text(_conllu(["3", "3", "0"]), encoding="utf-8")
    assert [s.heads for s in read_conllu(path)] == [[3, 3, 0]]


def test_head_one_past_the_last_word_names_file_and_line(tmp_path):
    path = tmp_path / "past_end.conllu"
    path.write_text(_conllu(["2", "0", "4"]), encoding="utf-8")  # word 3 (line 4) points at word 4 of 3
    with pytest.raises(ConlluFormatError, match=_at(path) + r":4: HEAD 4 is out of range: the sentence has 3 words"):
        list(read_conllu(path))


def test_a_tagging_row_with_an_extra_column_names_file_and_line(tmp_path):
    path = tmp_path / "extra.conll"
    path.write_text("EU NNP I-ORG\nrejects VBZ O extra\n", encoding="utf-8")
    with pytest.raises(ConllTaggingFormatError, match=_at(path) + r":2: expected 3 non-empty columns .* found 4"):
        list(read_columns(str(path)))


def test_a_tagging_row_with_a_missing_column_names_file_and_line(tmp_path):
    path = tmp_path / "short.conll"
    path.write_text("EU NNP I-ORG\n\nrejects O\n", encoding="utf-8")
    with pytest.raises(ConllTaggingFormatError, match=_at(path) + r":3: expected 3 non-empty columns .* found 2"):
        list(read_columns(str(path)))


def test_rows_as_wide_as_the_first_are_read_with_their_lines(tmp_path):
    path = tmp_path / "good.conll"
    path.write_text("EU NNP I-ORG\nrejects VBZ O\n\nBonn NNP I-LOC\n", encoding="utf-8")
    assert list(read_columns(str(path))) == [
        ([["EU", "NNP", "I-ORG"], ["rejects", "VBZ", "O"]], [f"{path}:1", f"{path}:2"]),
        ([["Bonn", "NNP", "I-LOC"]], [f"{path}:4"]),
    ]


@pytest.mark.parametrize(
    "column, value", [(5, "N N"), (6, "Case=Nom |Number=Sing"), (8, "nsubj pass"), (9, "2:nsubj 3:obj")]
)
def test_a_space_outside_form_lemma_and_misc_is_refused_at_its_column(tmp_path, column, value):
    columns = ["1", "New York", "New York", "PROPN", "NNP", "_", "0", "root", "_", "SpaceAfter=No Yes"]
    path = tmp_path / "ok.conllu"
    path.write_text("\t".join(columns) + "\n\n", encoding="utf-8")
    assert [s.words for s in read_conllu(path)] == [["New York"]]  # FORM, LEMMA and MISC may hold spaces
    columns[column - 1] = value
    path.write_text("\t".join(columns) + "\n\n", encoding="utf-8")
    with pytest.raises(ConlluFormatError, match=_at(path) + rf":1: column {column} \(\w+\): .* holds a space"):
        list(read_conllu(path))
