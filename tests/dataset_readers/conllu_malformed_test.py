"""CoNLL-U from a stranger's hands (issue 34): malformed IDs and HEADs are errors naming file, line
and column; legal multiword tokens, empty nodes and a byte-order mark are read; with
`skip_malformed` a bad sentence is reported and the next one read."""

import re

import pytest

from green_nlp.dataset_readers import ConlluDependenciesReader, ConlluFormatError, read_conllu
from tests.conftest import BAD_INPUTS, FIXTURES


def _word(index: int, form: str, head: str, deprel: str = "dep") -> str:
    return f"{index}\t{form}\t_\tX\t_\t_\t{head}\t{deprel}\t_\t_"


GOOD = "\n".join([_word(1, "A", "0", "root"), _word(2, "b", "1")]) + "\n\n"


@pytest.mark.parametrize("bad_id", ["x-y", "1.x", "abc", "2-1", "\u0661", "01"])
def test_a_malformed_id_is_an_error_naming_file_line_and_column(tmp_path, bad_id):
    path = tmp_path / "bad.conllu"
    path.write_text(
        GOOD + _word(1, "A", "0", "root") + "\n" + _word(2, "b", "1").replace("2", bad_id, 1) + "\n", encoding="utf-8"
    )
    with pytest.raises(ConlluFormatError, match=rf"^{path}:5: column 1 \(ID\): '{bad_id}' is not a word ID"):
        list(read_conllu(path))


@pytest.mark.parametrize("head", ["\u0661", "\uff11", "\u0967", "-1", "1.0", "1a"])
def test_head_must_be_ascii_digits(tmp_path, head):
    """Python's int() takes Arabic-Indic, full-width and Devanagari digits; CoNLL-U does not."""
    path = tmp_path / "bad.conllu"
    path.write_text(_word(1, "A", "0", "root") + "\n" + _word(2, "b", head) + "\n", encoding="utf-8")
    with pytest.raises(ConlluFormatError, match=rf"^{path}:2: column 7 \(HEAD\): HEAD .* ASCII digits"):
        list(read_conllu(path))


def test_multiword_tokens_and_empty_nodes_are_legal_and_the_words_are_read():
    sentences = list(read_conllu(FIXTURES / "ud" / "multiword_and_empty_nodes.conllu"))
    assert sentences[0].words == ["I", "can", "not", "go", "."]
    assert sentences[0].multiword_tokens == [(2, ["2-3", "cannot"] + ["_"] * 8)]
    assert sentences[1].words == ["Sue", "likes", "tea", "and", "Bill", "coffee"]  # empty node 5.1 dropped
    assert sentences[1].multiword_tokens == []


def test_dropped_empty_nodes_are_said_once_a_file(tmp_path, caplog):
    """They went without a word, and the DEPS column with them (README: other columns are kept)."""
    source = (FIXTURES / "ud" / "multiword_and_empty_nodes.conllu").read_text(encoding="utf-8")
    path = tmp_path / "twice.conllu"
    path.write_text(source + source, encoding="utf-8")  # empty nodes in two sentences
    with caplog.at_level("WARNING"):
        list(read_conllu(path))
        list(read_conllu(path))  # read again (a second epoch): already said
    warned = [record.getMessage() for record in caplog.records if "empty node" in record.getMessage()]
    assert len(warned) == 1 and warned[0].startswith(f"{path}:") and "empty node 5.1 left out" in warned[0]
    assert "DEPS as _" in warned[0]


@pytest.mark.parametrize(
    "line, why",
    [
        ("3-4\tdon't" + "\t_" * 8, "must start at the next word, 2"),
        ("2-5\tdon't" + "\t_" * 8, "spans words the sentence lacks"),
        ("3.1\tx" + "\t_" * 8, "must follow word 1"),
    ],
)
def test_misplaced_multiword_tokens_and_empty_nodes_are_errors(tmp_path, line, why):
    path = tmp_path / "bad.conllu"
    path.write_text(_word(1, "A", "0", "root") + "\n" + line + "\n" + _word(2, "b", "1") + "\n", encoding="utf-8")
    with pytest.raises(ConlluFormatError, match=why):
        list(read_conllu(path))


def test_a_byte_order_mark_is_accepted_at_the_start_only(tmp_path):
    path = tmp_path / "bom.conllu"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert [s.words for s in read_conllu(path)] == [["A", "b"]]
    path.write_bytes(GOOD.encode() + b"\xef\xbb\xbf" + GOOD.encode())
    with pytest.raises(ConlluFormatError, match=rf"{path}:4: starts with a UTF-8 byte-order mark.*files joined"):
        list(read_conllu(path))


def test_a_nul_byte_is_an_error_naming_the_column(tmp_path):
    path = tmp_path / "nul.conllu"
    path.write_text(_word(1, "A", "0", "root") + "\n" + _word(2, "b\x00c", "1") + "\n", encoding="utf-8")
    with pytest.raises(ConlluFormatError, match=rf"{path}:2: column 2: holds a NUL byte"):
        list(read_conllu(path))


def test_skip_malformed_reports_each_bad_sentence_and_reads_the_rest(tmp_path, caplog):
    path = tmp_path / "mixed.conllu"
    path.write_bytes(
        GOOD.encode()
        + (_word(1, "A", "0", "root") + "\n" + _word(2, "b", "\u0663")).encode()
        + b"\n\n"
        + b"1\tcaf\xe9\t_\tX\t_\t_\t0\troot\t_\t_\n\n"
        + GOOD.replace("A", "C").encode()
    )
    with pytest.raises(ConlluFormatError):  # the default stays strict (training, evaluation)
        list(ConlluDependenciesReader().read(str(path)))
    reader = ConlluDependenciesReader(skip_malformed=True)
    words = [[t.text for t in instance["words"].tokens] for instance in reader.read(str(path))]
    assert words == [["A", "b"], ["C", "b"]]
    assert [message.split(": ", 1)[0] for message in reader.malformed] == [f"{path}:5", f"{path}:7"]
    assert "ASCII digits" in reader.malformed[0] and "not valid UTF-8" in reader.malformed[1]
    assert f"{path}:5: column 7 (HEAD)" in caplog.text


@pytest.mark.parametrize("name", ["conllu_bom.conllu", "conllu_multiword_and_empty_nodes.conllu"])
def test_bad_input_files_that_must_be_read(name):
    assert list(ConlluDependenciesReader().read(str(BAD_INPUTS / name)))


@pytest.mark.parametrize(
    "columns, why",
    [
        ((1, ""), r"column 2 \(FORM\) is empty"),
        ((1, " "), r"column 2 \(FORM\) is empty"),
        ((7, ""), r"column 8 \(DEPREL\) is empty"),
        ((3, "NO UN"), r"column 4 \(UPOS\): 'NO UN' holds a space"),
    ],
)
def test_empty_columns_and_spaces_where_the_format_forbids_them(tmp_path, columns, why):
    index, value = columns
    fields = _word(2, "b", "1").split("\t")
    fields[index] = value
    path = tmp_path / "bad.conllu"
    path.write_text(_word(1, "A", "0", "root") + "\n" + "\t".join(fields) + "\n", encoding="utf-8")
    with pytest.raises(ConlluFormatError, match=rf"^{path}:2: {why}"):
        list(read_conllu(path))


@pytest.mark.parametrize("line_end", [b"\r", b"\r\n"])
def test_lone_cr_and_crlf_line_ends_read_as_lf(tmp_path, line_end):
    """Old Mac files end lines with a lone CR, which Python's binary line reading does not split
    on: the whole file was one line of 19 columns."""
    path = tmp_path / "cr.conllu"
    path.write_bytes((GOOD + GOOD).encode().replace(b"\n", line_end))
    assert [s.words for s in read_conllu(path)] == [["A", "b"], ["A", "b"]]
    path.write_bytes((GOOD + _word(1, "c", "x")).encode().replace(b"\n", line_end))
    with pytest.raises(ConlluFormatError, match=rf"{path}:4: column 7 \(HEAD\)"):
        list(read_conllu(path))


RANGE = "\t_" * 8  # the columns after ID and FORM of a multiword-token or empty-node line


@pytest.mark.parametrize(
    "lines, line, why",
    [
        (
            ["1-2\tab" + RANGE, _word(1, "a", "0", "root"), "2-3\tbc" + RANGE, _word(2, "b", "1"), _word(3, "c", "1")],
            3,
            r"multiword token 2-3 overlaps the one before, which spans words up to 2",
        ),
        (["1-1\ta" + RANGE, _word(1, "a", "0", "root"), _word(2, "b", "1")], 1, r"1-1 spans a single word"),
        ([_word(1, "a", "0", "root"), "1-2\tab" + RANGE, _word(2, "b", "1")], 2, r"must start at the next word, 2"),
        (
            [_word(1, "a", "0", "root"), "1.1\tx" + RANGE, "1.1\tx" + RANGE, _word(2, "b", "1")],
            3,
            r"empty node 1\.1 out of sequence \(expected 1\.2\)",
        ),
        ([_word(1, "a", "0", "root"), "1.2\tx" + RANGE, _word(2, "b", "1")], 2, r"expected 1\.1"),
        ([_word(1, "a", "0", "root"), "2-3\tbc" + RANGE, _word(2, "b", "1")], 2, r"2-3 spans words the sentence lacks"),
    ],
)
def test_invalid_multiword_tokens_and_empty_nodes_are_malformed_at_their_line(tmp_path, lines, line, why):
    """They were read, and a predictor wrote overlapping ranges back out: invalid CoNLL-U."""
    path = tmp_path / "bad.conllu"
    path.write_text("\n".join(lines) + "\n\n" + GOOD, encoding="utf-8")
    with pytest.raises(ConlluFormatError, match=rf"^{path}:{line}: (column 1 \(ID\): )?.*{why}"):
        list(read_conllu(path))
    reader = ConlluDependenciesReader(skip_malformed=True)  # the existing mechanism: skipped, the rest read
    assert [[t.text for t in instance["words"].tokens] for instance in reader.read(str(path))] == [["A", "b"]]
    assert reader.malformed[0].startswith(f"{path}:{line}: ")


def test_legal_empty_nodes_after_several_words_are_read(tmp_path):
    path = tmp_path / "empty_nodes.conllu"
    lines = [_word(1, "a", "0", "root"), "1.1\tx" + RANGE, "1.2\ty" + RANGE, _word(2, "b", "1"), "2.1\tz" + RANGE]
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    assert [s.words for s in read_conllu(path)] == [["a", "b"]]


def test_deprel_underscore_on_a_word_with_a_head_is_malformed(tmp_path):
    """It was read and trained as a relation named "_"."""
    path = tmp_path / "bad.conllu"
    path.write_text(_word(1, "A", "0", "root") + "\n" + _word(2, "b", "1", "_") + "\n\n", encoding="utf-8")
    with pytest.raises(ConlluFormatError, match=rf"^{path}:2: column 8 \(DEPREL\) is _ but HEAD is 1"):
        list(read_conllu(path))
    no_tree = "1\tA\t_\tX\t_\t_\t_\t_\t_\t_\n2\tb\t_\tX\t_\t_\t_\t_\t_\t_\n\n"  # HEAD and DEPREL _ throughout
    path.write_text(no_tree, encoding="utf-8")
    assert [(s.heads, s.deprels) for s in read_conllu(path)] == [(None, None)]


@pytest.mark.parametrize("space, name", [("\u00a0", "U+00A0"), ("\f", "U+000C"), (" \u00a0\t", "U+00A0")])
def test_a_whitespace_only_line_is_malformed_at_its_own_line(tmp_path, space, name):
    """It split the sentence, and the error blamed the next line (ID 2 out of sequence)."""
    path = tmp_path / "bad.conllu"
    path.write_text(_word(1, "A", "0", "root") + "\n" + space + "\n" + _word(2, "b", "1") + "\n\n", encoding="utf-8")
    with pytest.raises(ConlluFormatError, match=rf"^{path}:2: holds only whitespace \({re.escape(name)}\)"):
        list(read_conllu(path))


def test_lines_of_spaces_and_tabs_still_end_a_sentence(tmp_path):
    path = tmp_path / "spaces.conllu"
    path.write_text(GOOD.rstrip("\n") + "\n \t \n" + GOOD, encoding="utf-8")
    assert [s.words for s in read_conllu(path)] == [["A", "b"], ["A", "b"]]
