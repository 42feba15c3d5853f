import numpy
import pytest
import torch
from allennlp.common import Params
from allennlp.training.learning_rate_schedulers import LearningRateScheduler

from green_nlp import patches


def test_patches_are_idempotent():
    assert "crash_safe_checkpoints" in patches.applied()  # by green_nlp.register() in conftest
    # pytest resets warning filters around each test, so the warning filter may be added again here
    assert set(patches.apply_all()) <= {"autocast_warning"}
    assert patches.apply_all() == []


def test_reduce_on_plateau_builds_from_config_even_with_verbose():
    optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    scheduler = LearningRateScheduler.from_params(
        optimizer=optimizer,
        params=Params({"type": "reduce_on_plateau", "factor": 0.5, "patience": 0, "mode": "max", "verbose": True}),
    )
    scheduler.step(1.0)
    scheduler.step(0.5)
    assert optimizer.param_groups[0]["lr"] == 0.5


def test_training_state_with_numpy_scalars_loads_with_weights_only(tmp_path):
    path = tmp_path / "state.th"
    torch.save({"metric": numpy.float64(0.5), "count": numpy.int64(3)}, path)
    state = torch.load(path, weights_only=True)
    assert state["metric"] == 0.5 and state["count"] == 3


class _StateOnlyTrainer:
    def __init__(self, model_state, trainer_state):
        from allennlp.training.checkpointer import TrainerCheckpoint

        self._state = TrainerCheckpoint(model_state, trainer_state)

    def get_checkpoint_state(self):
        return self._state


def _trainer_state(epochs_completed, **extra):
    return {"epochs_completed": epochs_completed, "batches_in_epoch_completed": 0, **extra}


def test_checkpoints_are_written_whole_and_old_ones_pruned(tmp_path):
    from allennlp.training.checkpointer import Checkpointer

    checkpointer = Checkpointer(str(tmp_path), keep_most_recent_by_count=1)
    for epoch in (1, 2):
        checkpointer.save_checkpoint(_StateOnlyTrainer({"w": torch.full((2,), float(epoch))}, _trainer_state(epoch)))
    model_path, training_path = checkpointer.find_latest_checkpoint()
    assert torch.load(model_path, weights_only=True)["w"].tolist() == [2.0, 2.0]
    assert torch.load(training_path, weights_only=True)["epochs_completed"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model_state_e2_b0.th", "training_state_e2_b0.th"]


def test_a_save_that_dies_midway_leaves_the_previous_checkpoint_as_the_latest(tmp_path):
    from allennlp.training.checkpointer import Checkpointer

    checkpointer = Checkpointer(str(tmp_path), keep_most_recent_by_count=1)
    checkpointer.save_checkpoint(_StateOnlyTrainer({"w": torch.ones(2)}, _trainer_state(1)))
    unpicklable = _trainer_state(2, callback=lambda: None)  # torch.save fails part-way through
    with pytest.raises(Exception):  # noqa: B017 (whatever torch.save raises for a lambda; the point is what stays)
        checkpointer.save_checkpoint(_StateOnlyTrainer({"w": torch.zeros(2)}, unpicklable))
    model_path, _ = checkpointer.find_latest_checkpoint()
    assert model_path.endswith("model_state_e1_b0.th")
    assert not [p for p in tmp_path.iterdir() if "partial" in p.name or "e2" in p.name]
    assert checkpointer.load_checkpoint().trainer_state["epochs_completed"] == 1
