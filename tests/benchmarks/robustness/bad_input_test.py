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


# --------------------------------------------------------------- the front doors of issue 44
@pytest.fixture(scope="module")
def table(tmp_path_factory):
    from benchmarks.robustness.cases.running import all_cases

    return all_cases(tmp_path_factory.mktemp("cases"))


def test_the_table_has_120_cases_over_every_front_door_and_every_case_the_issue_names(table):
    from benchmarks.robustness.cases import case as entries
    from benchmarks.robustness.cases.issue44 import NAMED

    assert len(table) >= 120, len(table)
    doors = {entries.API, entries.FOLDERS, entries.SERVER, entries.RUNTIME, entries.SPACY, entries.TRAIN}
    assert doors <= {case.entry for case in table.values()}
    assert not [name for name in NAMED.values() if name not in table], "a case issue 44 names was dropped"
    for name, case in table.items():
        assert case.name == name and (case.error is None) != (case.check is None), name


@pytest.mark.parametrize(
    "name",
    [
        "load: threads=0",
        "classify: a misspelt no_known_features",
        "parse_tokens: 1,001 words",
        "model folder: graph path ../../etc/passwd",
        "model folder: one byte of the graph changed",
        "spaCy config: neither model nor archive",
        "allennlp train: misspelt trainer key 'num_epoch'",
        "archive with an absolute-path member",
    ],
)
def test_representative_front_door_cases_are_handled(table, name):
    detail = robustness_run(table[name])
    assert detail["handled"], detail
    assert "/work/" not in str(detail) and "/tmp/" not in str(detail)


def robustness_run(case):
    return bad_input.run_case(case)


def test_a_folder_that_loads_or_a_vague_refusal_is_not_handled():
    from benchmarks.robustness.cases import folders

    loads = bad_input.Case(
        "good",
        "load",
        "refused",
        lambda: folders.refused_load("good", lambda f: None),
        check=folders.refusal_check("x"),
    )
    assert "the folder loaded" in robustness_run(loads)["outcome"]
    vague = folders.refusal_check("outside the folder")
    assert not vague("folder: bad")[0] and vague("folder: a path outside the folder")[0]


def test_cli_judges_want_exit_2_a_named_input_no_traceback_and_every_record():
    from benchmarks.robustness.cases import cli

    refusal = cli.refusal("given.conllu")
    good = {"status": 2, "stdout": "", "stderr": "green-nlp parse: given.conllu: CoNLL-U\n"}
    assert refusal(good)[0]
    assert not refusal({**good, "status": 1})[0]
    assert not refusal({**good, "stderr": "Traceback (most recent call last):\n given.conllu"})[0]
    assert not refusal({**good, "stdout": '{"line": 1}'})[0]  # output written, then refused
    assert not refusal({**good, "stderr": "green-nlp parse: bad input\n"})[0]
    records = cli.records({1: None, 2: "empty|blank", 3: None})
    out = '{"line": 1, "x": 1}\n{"line": 2, "error": "text is empty"}\n{"line": 3, "x": 2}\n'
    assert records({"status": 0, "stdout": out, "stderr": ""})[0]
    assert not records({"status": 0, "stdout": out.replace("text is empty", "oops"), "stderr": ""})[0]
    assert not records({"status": 0, "stdout": "\n".join(out.splitlines()[:2]), "stderr": ""})[0]  # a line lost
    assert not records({"status": 0, "stdout": out.replace('"error": "text is empty"', '"x": 0'), "stderr": ""})[0]


def test_server_judges_want_the_status_class_the_words_and_no_traceback():
    from benchmarks.robustness.cases import server

    check = server.answer_check(400, "nested too deeply")
    assert check((400, '{"error": "JSON nested too deeply: the limit is 1,000"}'))[0]
    assert check((413, "nested too deeply"))[0]  # any 4xx where the issue names none
    assert not check((500, "nested too deeply"))[0]
    assert not check((400, "Traceback ... nested too deeply"))[0]
    assert not check((400, "bad request"))[0]
    assert not server.answer_check(200)((404, ""))[0]
    assert not server.sigterm_check((-15, "INFO: Finished server process"))[0]
    assert server.sigterm_check((-15, "green-nlp serve: stopped\n"))[0]


def test_an_error_fragment_may_list_alternatives():
    case = bad_input.Case(
        "alt",
        "x",
        "y",
        lambda: (_ for _ in ()).throw(ValueError("item 2 is empty")),
        error=["empty", ("word 2", "item 2")],
    )
    assert robustness_run(case)["handled"]
    case.error = ["empty", ("word 2", "index 1")]
    assert not robustness_run(case)["handled"]
