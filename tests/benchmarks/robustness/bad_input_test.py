"""benchmarks.robustness.bad_input covers every file in tests/bad_inputs/ and judges cases strictly."""

import pytest

from benchmarks.robustness import bad_input
from tests.conftest import BAD_INPUTS


@pytest.fixture(scope="module")
def robustness():
    return bad_input


def test_every_bad_input_file_has_a_case(robustness):
    files = {path.name for path in BAD_INPUTS.iterdir() if path.is_file()} - robustness.NOT_CASES
    cases = robustness.file_cases()
    assert files <= set(cases), f"no case in benchmarks.robustness.bad_input for {sorted(files - set(cases))}"
    for name, case in cases.items():
        assert case.file.name == name and (case.error is None) != (case.check is None), name


@pytest.mark.parametrize(
    "name",
    [
        "conllu_two_roots.conllu",
        "conllu_crlf_line_ends.conllu",
        "config_wrong_dimension.jsonnet",
        "archive_truncated.tar.gz",
        "conllu_malformed_id.conllu",
        "conllu_non_ascii_head.conllu",
        "conllu_bom.conllu",
        "conll_latin1.conll",
        "conll_empty.conll",
        "classifier_bom.tsv",
        "config_char_cnn_mismatch.jsonnet",
        "conllu_one_malformed_sentence.conllu",
        "parser_json_wrong_types.jsonl",
    ],
)
def test_cases_run_through_the_real_loaders(robustness, name):
    detail = robustness.run_case(robustness.file_cases()[name])
    assert detail["handled"], detail
    assert "/work/" not in str(detail) and "/tmp/" not in str(detail)


def test_deep_or_missing_errors_and_wrong_results_are_not_handled(robustness):
    import torch

    Case = robustness.Case
    deep = Case("deep", "torch", "clear error", lambda: torch.zeros(2) @ torch.zeros(3), error=[])
    detail = robustness.run_case(deep)
    assert not detail["handled"] and "not one of the clear error types" in detail["why_not_handled"]
    silent = Case("silent", "nothing", "an error", lambda: [], error=["x"])
    assert robustness.run_case(silent)["why_not_handled"] == "an error was due, none was raised"
    wrong = Case("wrong", "nothing", "a tree", lambda: [2, 1], check=lambda heads: (robustness.is_tree(heads), "?"))
    assert not robustness.run_case(wrong)["handled"]
    vague = Case(
        "vague",
        "nothing",
        "names the file",
        lambda: (_ for _ in ()).throw(ValueError("bad")),
        error=["{file}:1:"],
        file=BAD_INPUTS / "conllu_cycle.conllu",
    )
    assert "message lacks" in robustness.run_case(vague)["why_not_handled"]


def test_every_bad_input_file_is_described_in_the_readme(robustness):
    readme = (BAD_INPUTS / "README.md").read_text(encoding="utf-8")
    files = {path.name for path in BAD_INPUTS.iterdir() if path.is_file()} - robustness.NOT_CASES
    assert not [name for name in sorted(files) if f"| {name} |" not in readme]


def test_line_checks_catch_lost_misplaced_and_wrong_lines(robustness, tmp_path):
    """The per-line check fails a run that drops a good line, reports the wrong line or puts an error
    record out of place, or whose output differs from the line predicted alone."""
    lines = robustness.lines
    path = tmp_path / "in.txt"
    path.write_bytes(b"a\n\nb\nc\xe9\nd")
    check = lines.line_check(path, {4: "UTF-8"}, lambda text: {"out": text.upper()})
    good = [{"out": "A"}, {"out": "B"}, {"error": "not valid UTF-8", "line": 4}, {"out": "D"}]
    ok, what, extra = check(lines.LineRun(good))
    assert ok and extra["kept_lines"] == [1, 3, 5] and extra["error_lines"] == [4], what
    assert check(lines.LineRun([{"out": "A"}, {"out": "B"}, {"out": "D"}], {4: "not valid UTF-8"}))[0]
    assert not check(lines.LineRun(good[:2] + good[3:]))[0]  # the error record lost
    assert not check(lines.LineRun([good[0], good[2], good[1], good[3]]))[0]  # out of place
    assert not check(lines.LineRun([{"out": "A"}, {"out": "X"}, good[2], {"out": "D"}]))[0]  # wrong output
    assert not check(lines.LineRun([{"out": "A"}, {"out": "B"}, {"out": "D"}], {3: "not valid UTF-8"}))[0]
