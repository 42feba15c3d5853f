"""benchmarks.runtime.sort_window: its input and its rows (speed itself is a ratio the script
reports, never asserted)."""

from benchmarks.runtime import sort_window as bench


def test_without_the_data_it_falls_back_to_the_fixture_sentences(tmp_path, monkeypatch):
    monkeypatch.setenv("GREEN_NLP_DATA", str(tmp_path))
    lines, source = bench.input_lines()
    assert source.startswith("fixture sentences") and len(lines) >= 50


def test_rows_compare_every_window_with_file_order(parser_folders):
    lines = ["The cat sat on the mat.", "Dogs bark.", "A bird sang in the old tree near the river."] * 30
    rows = bench.measure(str(parser_folders["quickstart"]), lines, [32, 64, 90], repeats=1)
    assert list(rows) == ["window 32 (file order)", "window 64", "window 90"]
    assert rows["window 32 (file order)"]["vs_file_order"] == 1.0
    for row in rows.values():
        assert row["tokens_per_s"] > 0 and 0.0 <= row["same_trees_as_file_order"] <= 1.0
