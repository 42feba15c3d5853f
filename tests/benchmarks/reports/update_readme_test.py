"""benchmarks.reports.update_readme: headline results in the README, the rest in docs/results.md."""

import shutil

import pytest

from benchmarks.reports import update_readme
from tests.conftest import REPO_ROOT

README = "# tool\n\n## Results\n\n<!-- results:start -->\nold\n<!-- results:end -->\n\n## Limits\n\n- kept\n"


def _results(root, stems):
    results = root / "benchmarks" / "results"
    for stem in stems:
        (results / stem).parent.mkdir(parents=True, exist_ok=True)
        (results / f"{stem}.json").write_text("{}")
        (results / f"{stem}.md").write_text(f"| {stem} table |\n")
    return results


def test_headline_parts_go_to_the_readme_and_the_rest_to_docs_results(tmp_path):
    (tmp_path / "README.md").write_text(README)
    results = _results(tmp_path, ["parser_ewt", "dan", "tree_decoders", "gpu/parser_distillation"])
    (results / "dan_pruning.png").write_bytes(b"png")
    (results / "gpu" / "parser_distillation.png").write_bytes(b"png")
    update_readme.update(tmp_path)

    readme = (tmp_path / "README.md").read_text()
    assert "old" not in readme and readme.endswith("## Limits\n\n- kept\n")
    assert readme.index("| parser_ewt table |") < readme.index("| dan table |")
    assert "![dan_pruning](benchmarks/results/dan_pruning.png)" in readme
    assert "tree_decoders table" not in readme and "[docs/results.md](docs/results.md)" in readme
    further = (tmp_path / "docs" / "results.md").read_text()
    assert "| tree_decoders table |" in further and "| gpu/parser_distillation table |" in further
    assert "parser_ewt table" not in further
    # links from docs/ climb one folder
    assert "![parser_distillation](../benchmarks/results/gpu/parser_distillation.png)" in further


def test_a_results_json_without_its_table_is_refused(tmp_path):
    (tmp_path / "README.md").write_text(README)
    results = _results(tmp_path, ["ldnet"])
    (results / "ldnet.md").unlink()
    with pytest.raises(SystemExit, match="ldnet.json has no ldnet.md"):
        update_readme.update(tmp_path)


def test_a_readme_without_markers_is_refused(tmp_path):
    (tmp_path / "README.md").write_text("# tool\n")
    _results(tmp_path, ["ldnet"])
    with pytest.raises(SystemExit, match="lacks the"):
        update_readme.update(tmp_path)


def test_the_committed_readme_and_results_page_match_the_results_files(tmp_path):
    """The tables shown are the ones the benchmark scripts wrote: regenerating changes nothing."""
    shutil.copy(REPO_ROOT / "README.md", tmp_path / "README.md")
    shutil.copytree(REPO_ROOT / "benchmarks" / "results", tmp_path / "benchmarks" / "results")
    update_readme.update(tmp_path)
    assert (tmp_path / "README.md").read_text() == (REPO_ROOT / "README.md").read_text(), (
        "README.md is out of date: run python -m benchmarks.reports.update_readme"
    )
    assert (tmp_path / "docs" / "results.md").read_text() == (REPO_ROOT / "docs" / "results.md").read_text(), (
        "docs/results.md is out of date: run python -m benchmarks.reports.update_readme"
    )


def test_cpu_speed_columns_get_cpu_seconds_and_energy_per_million():
    table = (
        "| model | cpu_tokens_per_s | texts_per_wall_s | CPU sent/s b32 |\n|---|---|---|---|\n"
        "| a | 20,000.0 | 5.0 | 1,000 |\n| b |  | 7.0 | x |\n\nnote\n"
    )
    out = update_readme.with_energy(table).splitlines()
    assert out[0] == (
        "| model | cpu_tokens_per_s | CPU-s, Wh per M tokens | texts_per_wall_s | CPU sent/s b32 "
        "| CPU-s, Wh per M sentences |"
    )
    assert out[1].count("---") == 6
    wh = 50.0 * 225 / 64 / 3600  # 50 CPU-s per million tokens
    assert out[2] == f"| a | 20,000.0 | 50.0 s, {wh:.3g} Wh | 5.0 | 1,000 | 1,000 s, {20 * wh:.3g} Wh |"
    assert out[3] == "| b |  |  | 7.0 | x |  |"  # no figure, no estimate
    assert out[5] == "note" and "TDP share" in out[-1]


def test_a_table_without_cpu_speed_or_with_its_own_energy_is_unchanged():
    plain = "| model | las |\n|---|---|\n| a | 80.0 |\n"
    assert update_readme.with_energy(plain) == plain
    own = "| stage | texts_per_cpu_s | cpu_s_per_million |\n|---|---|---|\n| a | 1.0 | 1e6 |\n"
    assert update_readme.with_energy(own) == own


def test_one_runs_raw_figures_are_not_a_results_part(tmp_path):
    _results(tmp_path, ["ldnet"])
    (tmp_path / "benchmarks" / "results" / "ldnet.run1.json").write_text("{}")
    assert update_readme.result_stems(tmp_path / "benchmarks" / "results") == ["ldnet"]
