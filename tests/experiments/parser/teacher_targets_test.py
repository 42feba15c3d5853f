"""experiments/parser/teacher_targets.py: statistics of a teacher's soft targets, per word."""

import math
import shutil

import pytest
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive

from benchmarks.parser import parsing
from experiments.parser import teacher_targets as script
from green_nlp.dataset_readers import read_conllu
from green_nlp.dataset_readers.conllu_dependencies import DEPREL_NAMESPACE
from tests.benchmarks.helpers import fixture_treebank
from tests.conftest import FIXTURES


def _statistics(archive, batch_size):
    model = archive.model.eval()
    instances = parsing.read_for_model(archive, FIXTURES / "ud" / "synthetic-dev.conllu")
    return script.target_statistics(model, parsing.make_batches(instances, model.vocab, batch_size))


def test_statistics_do_not_depend_on_padding(quickstart_archive):
    archive = load_archive(str(quickstart_archive))
    one_by_one, padded = _statistics(archive, 1), _statistics(archive, 16)
    assert one_by_one.keys() == padded.keys()
    for key in one_by_one:
        assert math.isclose(one_by_one[key], padded[key], abs_tol=2e-4), (key, one_by_one, padded)


def test_statistics_are_probabilities_and_entropies(quickstart_archive):
    archive = load_archive(str(quickstart_archive))
    stats = _statistics(archive, 16)
    for key in ("gold_head_prob", "gold_label_prob", "arc_near_one_hot"):
        assert 0.0 <= stats[key] <= 1.0, stats
    num_labels = archive.model.vocab.get_vocab_size(DEPREL_NAMESPACE)
    assert 0.0 < stats["label_entropy"] <= math.log(num_labels), stats
    assert stats["arc_entropy"] > 0.0, stats
    # a barely trained quickstart parser is far from one-hot: its targets carry more than the gold tree
    assert stats["gold_head_prob"] < 0.99 and stats["arc_near_one_hot"] < 1.0, stats


def test_attachment_scores_match_the_benchmarks_prediction_path(quickstart_archive):
    """UAS/LAS from the statistics pass equal those of parsing.predict + attachment_scores."""
    archive = load_archive(str(quickstart_archive))
    path = FIXTURES / "ud" / "synthetic-dev.conllu"
    predictions, _ = parsing.predict(
        archive.model.eval(), parsing.make_batches(parsing.read_for_model(archive, path), archive.model.vocab, 16)
    )
    uas, las = parsing.attachment_scores(path, predictions)
    stats = _statistics(archive, 16)
    assert (stats["uas"], stats["las"]) == (round(uas, 2), round(las, 2))
    assert stats["las"] < 100.0  # the fixture parser is not perfect, so the comparison means something


def test_pooled_statistics_weigh_every_word_once(quickstart_archive):
    archive = load_archive(str(quickstart_archive))
    model = archive.model.eval()
    instances = parsing.read_for_model(archive, FIXTURES / "ud" / "synthetic-dev.conllu")
    whole = script.target_statistics(model, parsing.make_batches(instances, model.vocab, 16))
    halves = [(model, parsing.make_batches(part, model.vocab, 16)) for part in (instances[:3], instances[3:])]
    pooled = script.pooled_target_statistics(halves)
    for key in whole:
        assert math.isclose(whole[key], pooled[key], abs_tol=2e-4), (key, whole, pooled)


def test_cross_fitted_rows_score_each_training_sentence_with_the_teacher_that_left_it_out(
    fold_teacher_archives, tmp_path
):
    files = {"train": FIXTURES / "ud" / "synthetic-train.conllu", "dev": FIXTURES / "ud" / "synthetic-dev.conllu"}
    fold_dirs = [archive.parent for archive in fold_teacher_archives]
    rows = script.cross_fitted_rows(fold_dirs, files)
    train_sentences = sum(1 for _ in read_conllu(files["train"]))
    assert sum(fold["train_sentences_scored"] for fold in rows["fold_teachers"]) == train_sentences
    assert all(fold["train_sentences_scored"] > 0 for fold in rows["fold_teachers"])
    assert 0.0 <= rows["train_cross_fitted"]["arc_near_one_hot"] <= 1.0
    with pytest.raises(ConfigurationError, match="fold order"):
        script.cross_fitted_rows(fold_dirs[::-1], files)


def test_fold_teachers_trained_after_the_teachers_run_was_gone_are_scored_beside_its_earlier_rows(
    fold_teacher_archives, tmp_path, monkeypatch
):
    data = fixture_treebank(tmp_path, monkeypatch, "UD_Wolof-WTB", "wo_wtb")
    shutil.copy(FIXTURES / "ud" / "synthetic-train.conllu", data / "wo_wtb-ud-train.conllu")
    runs = tmp_path / "runs"
    (runs / "parser" / "ud_wolof_wtb" / "teacher" / "vocabulary").mkdir(parents=True)  # only its vocabulary
    assert script.treebank_rows(runs, "UD_Wolof-WTB", None) is None  # no teacher, nothing earlier: nothing to show
    (runs / "parser" / "ud_wolof_wtb" / "fold_teachers").mkdir()
    for fold, archive in enumerate(fold_teacher_archives):
        (runs / "parser" / "ud_wolof_wtb" / "fold_teachers" / f"fold{fold}").symlink_to(archive.parent)
    assert script.treebank_rows(runs, "UD_Wolof-WTB", None) is None
    earlier = {"train": {"las": 99.0}, "dev": {"las": 80.0}}
    rows = script.treebank_rows(runs, "UD_Wolof-WTB", earlier)
    assert rows["train"] == {"las": 99.0} and rows["dev"] == {"las": 80.0} and rows["teacher_scored_earlier"] is True
    assert [fold["fold"] for fold in rows["fold_teachers"]] == [0, 1]
    assert 0.0 <= rows["train_cross_fitted"]["las"] <= 100.0


def test_an_ablation_teacher_gets_its_own_rows_and_earlier_cross_fitted_rows_stay(
    quickstart_archive, tmp_path, monkeypatch
):
    data = fixture_treebank(tmp_path, monkeypatch, "UD_Wolof-WTB", "wo_wtb")
    shutil.copy(FIXTURES / "ud" / "synthetic-train.conllu", data / "wo_wtb-ud-train.conllu")
    runs = tmp_path / "runs"
    (runs / "parser" / "ud_wolof_wtb" / "teacher" / "vocabulary").mkdir(parents=True)  # only its vocabulary
    (runs / "parser" / "ud_wolof_wtb" / "ablations").mkdir()
    (runs / "parser" / "ud_wolof_wtb" / "ablations" / "minilm_teacher").symlink_to(quickstart_archive.parent)
    earlier = {
        "train": {"las": 99.0},
        "dev": {"las": 80.0},
        "train_cross_fitted": {"las": 70.0},
        "fold_teachers": [{"fold": 0}],
    }
    rows = script.treebank_rows(runs, "UD_Wolof-WTB", earlier)
    assert rows["train"] == {"las": 99.0} and rows["teacher_scored_earlier"] is True
    assert rows["train_cross_fitted"] == {"las": 70.0} and rows["fold_teachers"] == [{"fold": 0}]
    direct = _statistics(load_archive(str(quickstart_archive)), 64)
    assert rows["dev_minilm_teacher"] == direct and 0.0 <= rows["train_minilm_teacher"]["las"] <= 100.0


def test_an_ablation_teachers_fold_teachers_get_cross_fitted_rows_which_stay_when_its_runs_are_gone(
    quickstart_archive, fold_teacher_archives, tmp_path, monkeypatch
):
    data = fixture_treebank(tmp_path, monkeypatch, "UD_Wolof-WTB", "wo_wtb")
    shutil.copy(FIXTURES / "ud" / "synthetic-train.conllu", data / "wo_wtb-ud-train.conllu")
    treebank_runs = tmp_path / "runs" / "parser" / "ud_wolof_wtb"
    (treebank_runs / "teacher" / "vocabulary").mkdir(parents=True)  # only its vocabulary
    (treebank_runs / "ablations").mkdir()
    (treebank_runs / "ablations" / "minilm_teacher").symlink_to(quickstart_archive.parent)
    (treebank_runs / "minilm_fold_teachers").mkdir()
    for fold, archive in enumerate(fold_teacher_archives):
        (treebank_runs / "minilm_fold_teachers" / f"fold{fold}").symlink_to(archive.parent)
    earlier = {"train": {"las": 99.0}, "dev": {"las": 80.0}}
    rows = script.treebank_rows(tmp_path / "runs", "UD_Wolof-WTB", earlier)
    assert [fold["fold"] for fold in rows["minilm_teacher_fold_teachers"]] == [0, 1]
    assert 0.0 <= rows["train_minilm_teacher_cross_fitted"]["las"] <= 100.0
    assert "train_cross_fitted" not in rows  # the BiLSTM teacher has no fold teachers here

    # later the MiniLM runs are gone while the BiLSTM teacher's fold teachers are scored
    (treebank_runs / "minilm_fold_teachers").rename(treebank_runs / "fold_teachers")
    (treebank_runs / "ablations" / "minilm_teacher").unlink()
    kept = script.treebank_rows(tmp_path / "runs", "UD_Wolof-WTB", {**earlier, **rows})
    for key in (
        "train_minilm_teacher",
        "dev_minilm_teacher",
        "train_minilm_teacher_cross_fitted",
        "minilm_teacher_fold_teachers",
    ):
        assert kept[key] == rows[key], key
    assert kept["train_cross_fitted"] == rows["train_minilm_teacher_cross_fitted"]  # the same fixture fold teachers
