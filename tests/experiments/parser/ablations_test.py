"""experiments/parser/ablations.py scores ablation runs beside the paper-style students of a treebank,
on dev and test, with the same UAS/LAS as `allennlp evaluate`."""

import json
import shutil

from allennlp.data.data_loaders import MultiProcessDataLoader
from allennlp.models.archival import load_archive
from allennlp.training.util import evaluate

from experiments.parser import ablations as parser_ablations
from tests.benchmarks.helpers import fixture_treebank


def _run_dir(path, archive):
    path.mkdir(parents=True)
    shutil.copy(archive, path / "model.tar.gz")
    (path / "metrics.json").write_text("{}")
    return path


def _allennlp_las(archive_file, data_file) -> float:
    archive = load_archive(str(archive_file))
    loader = MultiProcessDataLoader(archive.validation_dataset_reader, str(data_file), batch_size=16)
    loader.index_with(archive.model.vocab)
    return 100 * evaluate(archive.model, loader, cuda_device=-1)["LAS"]


def test_ablations_are_scored_beside_the_students_of_their_size(quickstart_archive, tmp_path, monkeypatch):
    data = fixture_treebank(tmp_path, monkeypatch, "UD_Wolof-WTB", "wo_wtb")
    runs = tmp_path / "runs"
    _run_dir(runs / "parser" / "ud_wolof_wtb" / "d20", quickstart_archive)
    _run_dir(runs / "parser" / "ud_wolof_wtb" / "ablations" / "d20_dropout", quickstart_archive)

    found = parser_ablations.benchmark_treebank(runs, "UD_Wolof-WTB")

    rows = found["models"]
    assert list(rows) == ["D-20", "d20_dropout"]  # no teacher or B-20 run here: only what exists
    assert rows["d20_dropout"]["config"] == "ABLATION=ud_wolof_wtb_d20_dropout experiments/parser/ablation.jsonnet"
    for split, fixture in (("dev", data / "wo_wtb-ud-dev.conllu"), ("test", data / "wo_wtb-ud-test.conllu")):
        las = _allennlp_las(quickstart_archive, fixture)
        assert abs(rows["d20_dropout"][f"{split}_las"] - las) < 0.01
        assert rows["D-20"][f"{split}_las"] == rows["d20_dropout"][f"{split}_las"]
    assert rows["d20_dropout"]["dev_las"] != rows["d20_dropout"]["test_las"], rows  # the two files are told apart
    json.dumps(found)  # what the script writes


def test_a_treebank_without_ablation_runs_gives_nothing(tmp_path):
    assert parser_ablations.benchmark_treebank(tmp_path, "UD_Tamil-TTB") == {}


def test_an_ablation_of_another_size_is_set_beside_the_students_of_that_size():
    beside = parser_ablations.beside
    assert beside(["d20_dropout", "b20_24_epochs"]) == ["full", "D-20", "B-20"]
    assert beside(["d60_dropout", "d40_dropout", "d20_20_epochs"]) == [
        "full",
        "D-20",
        "B-20",
        "D-40",
        "B-40",
        "D-60",
        "B-60",
    ]


def test_earlier_rows_whose_runs_are_gone_are_kept_apart_with_what_they_were_beside():
    keep = parser_ablations.keep_earlier_rows
    earlier = {
        "models": {
            "full": {"test_las": 82.3},
            "D-20": {"test_las": 79.4},
            "B-20": {"test_las": 80.2},
            "D-40": {"test_las": 80.0},
            "d20_dropout": {"test_las": 79.9},
            "d20_cross_fit": {"test_las": 1.0},
        }
    }
    found = {"models": {"full": {"test_las": 82.7}, "D-20": {"test_las": 79.0}, "d20_cross_fit": {"test_las": 80.5}}}
    kept = keep(earlier, found)
    assert kept["models"] == found["models"]  # this run's rows are untouched
    assert kept["earlier_teacher_run"]["models"] == {
        "full": {"test_las": 82.3},
        "D-20": {"test_las": 79.4},
        "B-20": {"test_las": 80.2},
        "d20_dropout": {"test_las": 79.9},
    }
    assert keep(kept, found)["earlier_teacher_run"] == kept["earlier_teacher_run"]  # a later rescoring keeps the set
    assert "earlier_teacher_run" not in keep({}, found)


def test_without_a_retrained_teacher_earlier_rows_stay_in_the_set_marked_as_scored_earlier():
    add = parser_ablations.add_earlier_rows
    earlier = {
        "models": {
            "full": {"test_las": 89.5},
            "D-20": {"test_las": 88.4},
            "B-20": {"test_las": 88.8},
            "d20_dropout": {"test_las": 88.3},
            "d20_cross_fit": {"test_las": 1.0},
        }
    }
    found = {"models": {"d20_cross_fit": {"test_las": 89.2}, "d40_cross_fit": {"test_las": 89.6}}}
    distillation = {
        "B-40": {"uas": 90.6, "las": 88.8, "params": 4, "epochs": 16},
        "D-40": {"uas": 91.2, "las": 89.3, "params": 4},
    }
    rows = add(earlier, found, distillation)["models"]
    assert list(rows) == ["full", "D-20", "B-20", "D-40", "B-40", "d20_cross_fit", "d20_dropout", "d40_cross_fit"]
    assert rows["d20_cross_fit"] == {"test_las": 89.2}  # this run's score, not the earlier one
    assert rows["d20_dropout"] == {"test_las": 88.3, "scored_earlier": True}
    assert rows["B-40"] == {"test_uas": 90.6, "test_las": 88.8, "params": 4, "epochs": 16, "scored_earlier": True}
    assert all(rows[name].get("scored_earlier") for name in ("full", "D-20", "B-20", "D-40"))


def test_a_run_folder_holding_only_a_vocabulary_is_not_scored(quickstart_archive, tmp_path, monkeypatch):
    fixture_treebank(tmp_path, monkeypatch, "UD_Wolof-WTB", "wo_wtb")
    runs = tmp_path / "runs"
    (runs / "parser" / "ud_wolof_wtb" / "teacher" / "vocabulary").mkdir(parents=True)
    _run_dir(runs / "parser" / "ud_wolof_wtb" / "ablations" / "d20_cross_fit", quickstart_archive)
    assert list(parser_ablations.benchmark_treebank(runs, "UD_Wolof-WTB")["models"]) == ["d20_cross_fit"]


def test_runs_of_one_config_under_other_seeds_are_summarized_together():
    seed_means = parser_ablations.seed_means
    models = {
        "full": {"test_las": 89.5},
        "B-20": {"test_las": 88.8, "scored_earlier": True},
        "b20_seed2": {"dev_las": 88.9, "test_las": 88.6},
        "b20_seed3": {"dev_las": 89.1, "test_las": 89.0},
        "d20_cross_fit": {"dev_las": 88.8, "test_las": 88.5},
        "d20_cross_fit_seed2": {"dev_las": 89.0, "test_las": 88.9},
        "d40_cross_fit": {"dev_las": 89.4, "test_las": 89.4},
        "d60_dropout_seed2": {"test_las": 89.0},
    }

    means = seed_means(models)

    assert list(means) == ["B-20", "d20_cross_fit"]  # one run alone (d40, d60_dropout's only seed) is no summary
    assert means["B-20"]["seeds"] == ["B-20", "b20_seed2", "b20_seed3"] and means["B-20"]["runs"] == 3
    assert abs(means["B-20"]["test_mean"] - 88.8) < 1e-9 and means["B-20"]["test_min"] == 88.6
    assert "dev_mean" not in means["B-20"]  # B-20 was scored earlier on test only
    assert abs(means["d20_cross_fit"]["dev_mean"] - 88.9) < 1e-9
    assert abs(means["d20_cross_fit"]["test_stdev"] - 0.2828427) < 1e-6
