"""`python -m green_nlp.evaluation.conll18 GOLD PRED` on files it cannot score: one line naming the
file and exit status 2, not a traceback; a UTF-8 byte-order mark is accepted, as the readers do."""

import pytest

from green_nlp.evaluation.conll18 import PROG, main
from tests.conftest import FIXTURES

GOLD = FIXTURES / "conll18" / "gold.conllu"
PREDICTED = FIXTURES / "conll18" / "predicted.conllu"


def _refused(capsys, *paths) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main([str(path) for path in paths])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{PROG}: ")
    return err


def test_scores_are_printed(capsys):
    main([str(GOLD), str(PREDICTED)])
    assert capsys.readouterr().out.startswith("UAS 84.62  LAS 76.92")


def test_a_missing_file_is_one_line_naming_it(tmp_path, capsys):
    missing = tmp_path / "missing.conllu"
    assert f"{missing}: No such file or directory" in _refused(capsys, GOLD, missing)
    assert f"{missing}: No such file or directory" in _refused(capsys, missing, PREDICTED)


def test_a_latin1_file_is_one_line_naming_it_and_the_line(tmp_path, capsys):
    latin1 = tmp_path / "latin1.conllu"
    latin1.write_bytes(PREDICTED.read_bytes().replace(b"\tchased\t", b"\tch\xe4sed\t"))
    line = PREDICTED.read_bytes().split(b"\tchased\t")[0].count(b"\n") + 1
    assert f"{latin1}:{line}: not valid UTF-8" in _refused(capsys, GOLD, latin1)


def test_a_file_the_scorer_cannot_read_is_named(tmp_path, capsys):
    cut = tmp_path / "cut.conllu"
    cut.write_text("1\tThe\tthe\n", encoding="utf-8")
    assert f"{cut}: not CoNLL-U the scorer reads: " in _refused(capsys, GOLD, cut)


def test_a_byte_order_mark_is_accepted(tmp_path, capsys):
    bom = tmp_path / "bom.conllu"
    bom.write_bytes(b"\xef\xbb\xbf" + PREDICTED.read_bytes())
    main([str(GOLD), str(bom)])
    assert capsys.readouterr().out.startswith("UAS 84.62  LAS 76.92")
