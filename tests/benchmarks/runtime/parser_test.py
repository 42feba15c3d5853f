"""benchmarks.runtime.parser on the exported quickstart parser (raw text: characters, UPOS head) and 5
fixture sentences: every key the report needs is written, every ratio divides two figures of the
same run, no absolute path of the machine goes into the results, and the ONNX memory child runs
without torch. No timing is asserted."""

import json
import sys

import pytest

from benchmarks.runtime import parser as bench
from benchmarks.runtime.parsing import disk
from tests.conftest import FIXTURES, REPO_ROOT
from tests.export.exported_models import RAW_TEXT_CARD, exported

TEST_FILE = FIXTURES / "ud" / "synthetic-dev.conllu"


@pytest.fixture(scope="module")
def quickstart_folder(quickstart_archive, tmp_path_factory):
    return exported("quickstart", quickstart_archive, tmp_path_factory.mktemp("exported"), RAW_TEXT_CARD)


def test_speed_accuracy_and_sizes_write_same_run_figures(quickstart_archive, quickstart_folder, tmp_path, monkeypatch):
    monkeypatch.setattr(disk, "du_bytes", lambda path: 2_000_000_000)  # no du over the real 6 GB venv
    out = tmp_path / "results"
    monkeypatch.setattr(
        sys,
        "argv",
        [
            "benchmarks.runtime.parser",
            "--archive",
            str(quickstart_archive),
            "--folder",
            str(quickstart_folder),
            "--test-file",
            str(TEST_FILE),
            "--sentences",
            "5",
            "--repeats",
            "1",
            "--parts",
            "speed",
            "sizes",
            "--runtime-venv",
            str(tmp_path),
            "--training-venv",
            str(tmp_path / "training"),
            "--out",
            str(out),
        ],
    )
    bench.main()

    text = (out / "runtime.json").read_text()
    results = json.loads(text)
    assert str(REPO_ROOT) not in text and str(tmp_path) not in text and str(quickstart_archive.parent) not in text
    assert results["archive"] == "model.tar.gz" and results["test_file"] == "fixtures/ud/synthetic-dev.conllu"
    assert results["test_sentences"] == 5 and results["threads"] == 1 and results["green_nlp_from_this_clone"]
    assert results["test_data"]["longest_word_chars"] > 0
    for key in ("hardware", "date", "note", "load_average", "int8_agreement", "accuracy", "sizes", "aims"):
        assert key in results, key
    assert len(results["load_average"]["start"]) == len(results["load_average"]["end"]) == 3

    speed = results["speed"]
    assert set(speed) == {f"{form} {setting}" for form in bench.FORMS for setting in bench.SETTINGS}
    for row in speed.values():
        assert row["sentences"] == 5 and row["tokens"] == results["test_tokens"]
        assert row["tokens_per_s"] > 0 and row["sentences_per_s"] > 0 and len(row["pass_wall_s"]) == 1
        assert ("latency_p95_ms" in row) == (row["batch_size"] == 1)

    ratios = results["speed_ratios"]
    expected = {f"onnx_int8_vs_torch_int8 {s}" for s in bench.SETTINGS} | {
        f"{form}_vs_allennlp_predictor {s}" for form in bench.FORMS[1:] for s in bench.SETTINGS
    }
    assert set(ratios) == expected
    for ratio in ratios.values():  # each ratio is the quotient of two rows of this very run
        numerator, denominator = speed[ratio["numerator"]], speed[ratio["denominator"]]
        assert ratio["numerator_tokens_per_s"] == numerator["tokens_per_s"]
        assert ratio["denominator_tokens_per_s"] == denominator["tokens_per_s"]
        assert ratio["ratio"] == pytest.approx(numerator["tokens_per_s"] / denominator["tokens_per_s"])
        assert numerator["setting"] == denominator["setting"]
    for setting in bench.SETTINGS:
        aim = results["aims"][f"ONNX int8 / torch int8 tokens/s, {setting}"]
        assert aim["value"] == ratios[f"onnx_int8_vs_torch_int8 {setting}"]["ratio"]

    accuracy = results["accuracy"]
    assert set(accuracy) == set(bench.FORMS)
    for row in accuracy.values():
        assert 0 <= row["uas"] <= 100 and 0 <= row["las"] <= row["uas"] and "upos_accuracy" in row
        assert row["words"] == results["test_tokens"]
    # the unquantized paths give the predictor's answers at every batch setting
    for form in ("torch", "onnx_fp32"):
        assert accuracy[form]["same_arcs_as_predictor"] == 1.0
        assert accuracy[form]["b1_answers_same"] and accuracy[form]["b32-sorted_answers_same"]
    assert set(results["int8_agreement"]) >= {"words", "heads", "heads_and_labels", "upos", "sentences"}

    sizes = results["sizes"]
    for key in ("archive_mb", "onnx_fp32_mb", "onnx_int8_mb", "exported_folder_mb", "shipped_folder_int8_only_mb"):
        assert sizes[key] > 0, key
    assert sizes["training_venv_gb"] == sizes["runtime_venv_gb"] == 2.0

    markdown = (out / "runtime.md").read_text()
    assert "| onnx_int8 b32-sorted |" in markdown and "| onnx_fp32 |" in markdown
    assert "ONNX int8 / torch int8 tokens/s, b1" in markdown


def test_cold_start_ratios_and_aims_come_from_the_same_medians():
    cold = {
        "allennlp_predict": {"first_line_s": 12.0},
        "green_nlp_parse_int8": {"first_line_s": 3.0},
        "green_nlp_parse_int8 (runtime venv)": {"first_line_s": 1.5},
        "import_spacy": {"first_line_s": 1.0},
    }
    ratios = bench.cold_start_ratios(cold)
    assert set(ratios) == {
        "allennlp_predict_vs_green_nlp_parse_int8",
        "allennlp_predict_vs_green_nlp_parse_int8 (runtime venv)",
    }
    assert ratios["allennlp_predict_vs_green_nlp_parse_int8"]["ratio"] == 4.0
    aims = bench.aims({"cold_start": cold, "cold_start_ratios": ratios})
    assert aims["green-nlp parse cold start, s"] == {"aim": "<= 2.0", "value": 3.0, "met": False}
    assert aims["cold start speed-up over allennlp predict (runtime venv)"]["value"] == 8.0
    assert aims["cold start speed-up over allennlp predict (runtime venv)"]["met"]


def test_onnx_memory_child_runs_without_torch(quickstart_archive, quickstart_folder):
    found = bench.peak_memory(["onnx_int8"], quickstart_archive, quickstart_folder, TEST_FILE, 5)["onnx_int8"]
    assert found["sentences"] == 5 and found["max_rss_mb"] > 0
    assert found["torch_imported"] is False and found["allennlp_imported"] is False
    assert found["green_nlp_from_this_clone"] is True


def test_sizes_name_the_training_venv_wherever_it_lives(quickstart_archive, quickstart_folder, tmp_path, monkeypatch):
    """Outside the usual set-up (no `.venv` in the clone, not run from a venv) the key is still
    written, as unknown; a venv elsewhere is measured where it is."""
    measured = []
    monkeypatch.setattr(disk, "du_bytes", lambda path: measured.append(path) or 3_000_000_000)
    monkeypatch.setattr(disk, "training_venv", lambda: None)
    sizes = disk.disk_sizes(quickstart_archive, quickstart_folder, None)
    assert sizes["training_venv_gb"] is None and "runtime_venv_gb" not in sizes and measured == []
    elsewhere = tmp_path / "venvs" / "training"
    sizes = disk.disk_sizes(quickstart_archive, quickstart_folder, None, elsewhere)
    assert sizes["training_venv_gb"] == 3.0 and measured == [elsewhere.resolve()]


def test_the_default_training_venv_is_the_one_running(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "somewhere" / "venv"))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    assert disk.training_venv() == tmp_path / "somewhere" / "venv"
