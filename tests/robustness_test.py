"""benchmarks/robustness.py covers every file in tests/bad_inputs/ and judges cases strictly."""
import pytest

from tests.benchmark_scripts import load_benchmark
from tests.conftest import BAD_INPUTS


@pytest.fixture(scope="module")
def robustness():
    return load_benchmark("robustness")


def test_every_bad_input_file_has_a_case(robustness):
    files = {path.name for path in BAD_INPUTS.iterdir() if path.is_file()}
    cases = robustness.file_cases()
    assert files <= set(cases), f"no case in benchmarks/robustness.py for {sorted(files - set(cases))}"
    for name, case in cases.items():
        assert case.file.name == name and (case.error is None) != (case.check is None), name


@pytest.mark.parametrize("name", ["conllu_two_roots.conllu", "conllu_crlf_line_ends.conllu",
                                  "config_wrong_dimension.jsonnet", "archive_truncated.tar.gz"])
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
    vague = Case("vague", "nothing", "names the file", lambda: (_ for _ in ()).throw(ValueError("bad")),
                 error=["{file}:1:"], file=BAD_INPUTS / "conllu_cycle.conllu")
    assert "message lacks" in robustness.run_case(vague)["why_not_handled"]
