"""Classification files from a stranger's hands (issue 34): a UTF-8 BOM before the SST-2 header is
accepted (the header is still recognised), a NUL byte is an error naming file, line and column."""

import pytest

from green_nlp.dataset_readers.text_classification import TextFormatError, read_examples
from tests.conftest import BAD_INPUTS


def test_a_byte_order_mark_before_the_header_is_accepted():
    examples = list(read_examples(str(BAD_INPUTS / "classifier_bom.tsv")))
    assert [(e.label, e.text) for e in examples] == [("1", "a fine film"), ("0", "a dull film")]


def test_a_nul_byte_is_an_error(tmp_path):
    path = tmp_path / "nul.tsv"
    path.write_text("label\tsentence\n1\ta fine film\n0\ta du\x00ll film\n", encoding="utf-8")
    with pytest.raises(TextFormatError, match=rf"^{path}:3: holds a NUL byte at column 7"):
        list(read_examples(str(path)))
