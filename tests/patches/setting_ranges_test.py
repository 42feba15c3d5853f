"""Trainer and batch settings that train the wrong way or crash late are refused naming their key,
through the real `green-nlp train` on the quickstart config."""

import subprocess
import sys

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.training.learning_rate_schedulers import (
    LinearWithWarmup,
    NoamLR,
    ReduceOnPlateauLearningRateScheduler,
)

from green_nlp.patches import setting_ranges
from green_nlp.patches.setting_ranges import check_checkpointer, check_trainer

QUICKSTART = "training_configs/parser/quickstart.jsonnet"


def test_the_patch_is_applied_once() -> None:
    assert setting_ranges.apply() is False  # by green_nlp.register() in conftest


@pytest.mark.parametrize(
    "settings, key",
    [
        ({"grad_norm": -5}, "trainer.grad_norm"),
        ({"grad_norm": 0}, "trainer.grad_norm"),
        ({"grad_clipping": 0.0}, "trainer.grad_clipping"),
        ({"num_epochs": 0}, "trainer.num_epochs"),
        ({"num_epochs": "3"}, "trainer.num_epochs"),
    ],
)
def test_a_trainer_setting_out_of_range_is_refused(settings, key) -> None:
    with pytest.raises(ConfigurationError, match=rf"^{key} must be a positive number"):
        check_trainer(settings)


def test_the_defaults_and_good_values_pass() -> None:
    for settings in (
        {},
        {"grad_norm": False},
        {"grad_norm": None},
        {"grad_norm": 5.0, "grad_clipping": 1, "num_epochs": 1},
    ):
        check_trainer(settings)


def test_keeping_no_checkpoint_is_refused_and_keeping_all_is_allowed() -> None:
    for count in (0, -1):
        with pytest.raises(ConfigurationError, match=r"^trainer.checkpointer.keep_most_recent_by_count must be"):
            check_checkpointer({"keep_most_recent_by_count": count})
    check_checkpointer({"keep_most_recent_by_count": None})
    check_checkpointer({"keep_most_recent_by_count": 1})


def _adam(*rates: float) -> torch.optim.Optimizer:
    """A real torch Adam with one parameter group per rate."""
    return torch.optim.Adam([{"params": [torch.nn.Parameter(torch.zeros(2))], "lr": rate} for rate in rates])


def test_a_learning_rate_of_zero_is_refused_unless_a_scheduler_may_set_one() -> None:
    with pytest.raises(ConfigurationError, match=r"^trainer.optimizer.lr is 0, so no weight would change"):
        check_trainer({"optimizer": _adam(0.0)})
    frozen = _adam(0.0, 0.0)
    plateau = ReduceOnPlateauLearningRateScheduler(frozen)
    with pytest.raises(ConfigurationError, match="its scheduler, ReduceOnPlateauLearningRateScheduler, only scales it"):
        check_trainer({"optimizer": frozen, "learning_rate_scheduler": plateau})
    warming = _adam(1e-3)  # a warm-up's first step sets lr to 0: the configured rate is what counts
    check_trainer({"optimizer": warming, "learning_rate_scheduler": LinearWithWarmup(warming, 2, 10, warmup_steps=5)})
    assert warming.param_groups[0]["lr"] == 0
    noam = _adam(0.0)
    check_trainer({"optimizer": noam, "learning_rate_scheduler": NoamLR(noam, model_size=8, warmup_steps=10)})
    check_trainer({"optimizer": _adam(0.0, 1e-3)})  # one frozen group beside a training one
    unmatched = torch.optim.Adam(
        [{"params": [torch.nn.Parameter(torch.zeros(2))], "lr": 0.0}, {"params": [], "lr": 0.1}]
    )  # a parameter_groups regex that matched nothing: its rate trains nothing
    with pytest.raises(ConfigurationError, match="lr is 0"):
        check_trainer({"optimizer": unmatched})
    check_trainer({"optimizer": _adam(1e-3)})


@pytest.mark.parametrize("limit", [0, -1, 2.0, True, {"tokens": 0}])
def test_a_vocabulary_limit_below_one_is_refused(limit) -> None:
    counts = {"tokens": {"a": 3, "b": 2, "c": 1}}
    with pytest.raises(ConfigurationError, match=r"vocabulary.max_vocab_size\S* must be a whole number of 1 or more"):
        Vocabulary(counter=counts, max_vocab_size=limit)
    kept = Vocabulary(counter=counts, max_vocab_size={"tokens": 2})  # the most frequent two, and the padding and OOV
    assert kept.get_token_to_index_vocabulary("tokens").keys() == {"@@PADDING@@", "@@UNKNOWN@@", "a", "b"}
    unlimited = Vocabulary(counter=counts, max_vocab_size={"tokens": None})  # AllenNLP's "no limit" for a namespace
    assert unlimited.get_vocab_size("tokens") == 5


@pytest.mark.parametrize(
    "override, message",
    [
        ('{"trainer.optimizer.lr": 0}', "trainer.optimizer.lr is 0, so no weight would change"),
        ('{"trainer.grad_norm": -5}', "trainer.grad_norm must be a positive number"),
        (
            '{"data_loader.batch_sampler.batch_size": 0}',
            "data_loader.batch_sampler.batch_size must be a positive number",
        ),
        (
            '{"trainer.checkpointer.keep_most_recent_by_count": 0}',
            "trainer.checkpointer.keep_most_recent_by_count must be a positive number",
        ),
    ],
)
def test_green_nlp_train_says_it_on_one_line(tmp_path, override, message) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", "train", QUICKSTART, "-s", str(tmp_path / "run"), "-o", override],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 2, run.stderr[-2000:]
    assert message in run.stderr and "Traceback" not in run.stderr
