import numpy
import torch
from allennlp.common import Params
from allennlp.training.learning_rate_schedulers import LearningRateScheduler

from green_nlp import compat


def test_patches_are_idempotent():
    assert compat.apply_all() == []  # already applied when green_nlp was imported


def test_reduce_on_plateau_builds_from_config_even_with_verbose():
    optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    scheduler = LearningRateScheduler.from_params(
        optimizer=optimizer, params=Params({"type": "reduce_on_plateau", "factor": 0.5, "patience": 0,
                                            "mode": "max", "verbose": True}))
    scheduler.step(1.0)
    scheduler.step(0.5)
    assert optimizer.param_groups[0]["lr"] == 0.5


def test_training_state_with_numpy_scalars_loads_with_weights_only(tmp_path):
    path = tmp_path / "state.th"
    torch.save({"metric": numpy.float64(0.5), "count": numpy.int64(3)}, path)
    state = torch.load(path, weights_only=True)
    assert state["metric"] == 0.5 and state["count"] == 3
