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


@pytest.mark.parametrize("encoding", ["IOB1", "BIO"])
@pytest.mark.parametrize("tag", ["O-ORG", "E-ORG", "B-", "o"])
def test_a_tag_that_is_not_o_or_a_valid_prefix_and_type_is_refused(tmp_path, encoding, tag):
    """`O-ORG` was read as prefix O, type ORG: an ORG span nobody wrote."""
    path = tmp_path / "bad.conll"
    bio = GOOD.replace("I-ORG", "B-ORG").replace("I-MISC", "B-MISC")  # valid in both schemes
    path.write_text(bio + f"Bonn NNP I-NP {tag}\n", encoding="utf-8")
    with pytest.raises(ConllTaggingFormatError, match=rf"^{path}:4: tag '{tag}' is not O, B-<type> or I-<type>"):
        _words(path, encoding=encoding)


@pytest.mark.parametrize("space", ["\u00a0", "\f", " \u00a0 "])
def test_a_whitespace_only_line_is_refused_at_its_own_line(tmp_path, space):
    """It silently split the sentence in two."""
    path = tmp_path / "bad.conll"
    path.write_text(GOOD + space + "\n" + GOOD, encoding="utf-8")
    with pytest.raises(ConllTaggingFormatError, match=rf"^{path}:4: holds only whitespace"):
        _words(path)
    path.write_text(GOOD + " \t\n" + GOOD, encoding="utf-8")  # spaces and tabs: a blank line, as before
    assert _words(path) == [["EU", "rejects", "German"]] * 2


def test_a_no_break_space_inside_a_word_stays_in_the_word(tmp_path):
    """str.split() split the word at it, and the next line was blamed for its column count."""
    path = tmp_path / "nbsp.conll"
    path.write_text("10\u00a0000 CD I-NP O\n" + GOOD, encoding="utf-8")
    assert _words(path) == [["10\u00a0000", "EU", "rejects", "German"]]


@pytest.mark.parametrize("split", ["train", "dev"])
@pytest.mark.parametrize("dev_size", [-1, 0, 1.5, True])
def test_dev_size_is_checked_when_the_reader_is_built(split, dev_size):
    """dev_size -1 failed at the first read with random's 'Sample larger than population or is negative'."""
    with pytest.raises(
        ValueError, match=rf"^dev_size must be a whole number of sentences, at least 1, with split '{split}'"
    ):
        ConllTaggingReader(split=split, dev_size=dev_size)
    ConllTaggingReader(split="all", dev_size=0)  # not used without a split


def test_seed_must_be_an_integer():
    """None would draw a different dev set in the train and the dev reader: they would overlap."""
    with pytest.raises(ValueError, match="^seed must be an integer, got None"):
        ConllTaggingReader(split="train", seed=None)
