"""CoNLL tagging files from a stranger's hands (issue 34): a wrong encoding names file, line and the
reader's `file_encoding` option; an empty file is a clear error; a BOM is accepted at the start of
the file only; NUL refused."""

import pytest

from green_nlp.dataset_readers.conll_tagging import ConllTaggingFormatError, ConllTaggingReader
from tests.conftest import BAD_INPUTS

GOOD = "EU NNP I-NP I-ORG\nrejects VBZ I-VP O\nGerman JJ I-NP I-MISC\n"


def _words(path, **options):
    return [[t.text for t in instance["tokens"].tokens] for instance in ConllTaggingReader(**options).read(str(path))]


def test_latin1_bytes_name_the_line_and_the_encoding_option(tmp_path):
    path = BAD_INPUTS / "conll_latin1.conll"
    with pytest.raises(ConllTaggingFormatError, match=rf"^{path}:4: not valid utf-8 .*file_encoding"):
        _words(path)
    assert _words(path, file_encoding="latin-1") == [["EU", "rejects", "German", "Müller"]]


@pytest.mark.parametrize("text", ["", "\n\n", "-DOCSTART- -X- -X- O\n\n"])
def test_an_empty_file_is_a_clear_error(tmp_path, text):
    path = tmp_path / "empty.conll"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConllTaggingFormatError, match=rf"^{path}:1: file contains no tagged words"):
        _words(path)


def test_a_byte_order_mark_is_accepted_at_the_start_only(tmp_path):
    assert _words(BAD_INPUTS / "conll_bom.conll") == [["EU", "rejects", "German"]]
    joined = tmp_path / "joined.conll"  # two files joined with cat: the second BOM used to stay in a word
    joined.write_bytes(
        (BAD_INPUTS / "conll_bom.conll").read_bytes() + b"\n" + (BAD_INPUTS / "conll_bom.conll").read_bytes()
    )
    lines = (BAD_INPUTS / "conll_bom.conll").read_bytes().count(b"\n")
    with pytest.raises(ConllTaggingFormatError, match=rf"^{joined}:{lines + 2}: starts with a UTF-8 byte-order mark"):
        _words(joined)


def test_a_nul_byte_is_refused_with_file_and_line(tmp_path):
    path = tmp_path / "nul.conll"
    path.write_text(GOOD + "Mu\x00ller NNP I-NP I-PER\n", encoding="utf-8")
    with pytest.raises(ConllTaggingFormatError, match=rf"^{path}:4: holds a NUL byte at column 3"):
        _words(path)


def test_an_unknown_file_encoding_is_refused_when_the_reader_is_built():
    with pytest.raises(ValueError, match="file_encoding 'utf-99'"):
        ConllTaggingReader(file_encoding="utf-99")


def test_lone_cr_line_ends_read_as_lf(tmp_path):
    """A lone CR used to stay inside a row: `B-ORG\\rrejects` became one tag."""
    path = tmp_path / "cr.conll"
    path.write_bytes((GOOD + "\n" + GOOD).encode().replace(b"\n", b"\r"))
    assert _words(path) == [["EU", "rejects", "German"]] * 2
