"""Trainer and batch settings that AllenNLP takes without a check, refused with their config key.

allennlp 2.10.1 builds its trainer and batch samplers from whatever numbers a config gives:
- `trainer.grad_norm` below zero trained the wrong way (torch's clipping scales every gradient by
  the limit over the norm, so a negative limit flips their sign): a parser's loss climbed to
  thousands and LAS fell to 0 with exit status 0; a limit of 0 set every gradient to zero;
- `trainer.grad_clipping` of 0 or below likewise;
- `trainer.num_epochs` of 0 or below trained nothing, then stopped with a traceback about a missing
  `best.th` while archiving;
- `data_loader.batch_sampler.batch_size` (or `max_tokens`) of 0 stopped in a ZeroDivisionError
  inside the sampler, and a negative one with an error about `__len__`;
- an optimizer whose every learning rate is 0 (`trainer.optimizer.lr`) trained nothing and
  exited 0, also under a scheduler that only scales that rate (`reduce_on_plateau`,
  `slanted_triangular`...); with one that may set its own (`noam`) it stays allowed. torch
  refuses a negative rate itself;
- `trainer.checkpointer.keep_most_recent_by_count` of 0 or below trained a whole epoch, then ended
  in a bare AssertionError when the first checkpoint was saved;
- `vocabulary.max_vocab_size` of 0 was ignored (no limit), -N dropped the N least frequent
  tokens (a Python slice, `[:-N]`) and 2.0 failed in that slice, for the whole config or for one
  namespace (a namespace's `null` still means no limit).
`allennlp find-lr` builds the same trainer, so a config whose rate is 0 is refused there too, though
find-lr sets its own rates: give the config a positive one.
Each is now a `ConfigurationError` that `green-nlp train` prints on one line, before training starts.
"""

import functools
import inspect
from collections.abc import Callable
from typing import Any

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)


def _positive(key: str, value: Any, meaning: str) -> None:
    from allennlp.common.checks import ConfigurationError

    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ConfigurationError(f"{key} must be a positive number ({meaning}), got {value!r}")


def check_trainer(settings: dict[str, Any]) -> None:
    """The trainer's clipping limits and epochs, as given to `GradientDescentTrainer`."""
    grad_norm = settings.get("grad_norm", False)
    if grad_norm is not None and grad_norm is not False:  # no clipping (allennlp's defaults); 0 == False
        _positive("trainer.grad_norm", grad_norm, "the largest gradient norm; leave it out for no clipping")
    if settings.get("grad_clipping") is not None:
        _positive("trainer.grad_clipping", settings["grad_clipping"], "the largest gradient value; leave it out")
    if "num_epochs" in settings:
        _positive("trainer.num_epochs", settings["num_epochs"], "1 or more")
    check_learning_rate(settings)


# allennlp 2.10.1's schedulers that scale the optimizer's own rate, so that from 0 they stay at 0
# (`noam`, `cosine`, `polynomial_decay` and `combined` may set a rate of their own)
SCALING_SCHEDULERS = frozenset(
    {
        "ConstantLearningRateScheduler",
        "ConstantWithWarmupLearningRateScheduler",
        "CosineWithWarmupLearningRateScheduler",
        "CosineHardRestartsWithWarmupLearningRateScheduler",
        "StepLearningRateScheduler",
        "MultiStepLearningRateScheduler",
        "ExponentialLearningRateScheduler",
        "ReduceOnPlateauLearningRateScheduler",
        "LinearWithWarmup",
        "SlantedTriangular",
    }
)


def check_learning_rate(settings: dict[str, Any]) -> None:
    """An optimizer whose every parameter group has a learning rate of 0, with no scheduler that
    could set another."""
    from allennlp.common.checks import ConfigurationError

    groups = getattr(settings.get("optimizer"), "param_groups", None) or []
    # the configured rate: a scheduler has already set `lr` to its first step's (0 in a warm-up) and
    # keeps the configured one as `initial_lr`
    # (a group whose parameter_groups regex matched nothing trains nothing either way: not counted)
    rates = [group.get("initial_lr", group.get("lr")) for group in groups if group.get("params")]
    scheduler = settings.get("learning_rate_scheduler")
    only_scaled = scheduler is None or type(scheduler).__name__ in SCALING_SCHEDULERS
    if rates and all(rate == 0 for rate in rates) and only_scaled:
        raise ConfigurationError(
            "trainer.optimizer.lr is 0, so no weight would change"
            + (f" (its scheduler, {type(scheduler).__name__}, only scales it)" if scheduler is not None else "")
            + ": give a positive learning rate"
        )


def check_vocabulary(settings: dict[str, Any]) -> None:
    """`max_vocab_size`: None (no limit), a whole number of 1 or more, or one per namespace (None
    there: that namespace has no limit, as AllenNLP reads it)."""
    limit = settings.get("max_vocab_size")
    limits = limit.items() if isinstance(limit, dict) else [(None, limit)]
    for namespace, value in limits:
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            from allennlp.common.checks import ConfigurationError

            key = "vocabulary.max_vocab_size" + (f".{namespace}" if namespace is not None else "")
            raise ConfigurationError(
                f"{key} must be a whole number of 1 or more (the most tokens a namespace keeps; leave it out "
                f"for no limit), got {value!r}"
            )


def check_checkpointer(settings: dict[str, Any]) -> None:
    """How many checkpoints to keep: 0 or below trained a whole epoch, then stopped in a bare
    AssertionError when the first one was saved."""
    count = settings.get("keep_most_recent_by_count")
    if count is not None:
        _positive(
            "trainer.checkpointer.keep_most_recent_by_count",
            count,
            "1 or more; null keeps every checkpoint, and `allennlp train -r` needs at least the last one",
        )


def _checked(init: Callable[..., None], check: Callable[[dict[str, Any]], None]) -> Callable[..., None]:
    """`init` that first calls `check` with its arguments by name (positional ones included)."""
    signature = inspect.signature(init)

    @functools.wraps(init)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> None:
        check(signature.bind_partial(self, *args, **kwargs).arguments)
        init(self, *args, **kwargs)

    wrapper._green_nlp_patched = True  # type: ignore[attr-defined]
    return wrapper


def apply() -> bool:
    """Wrap the constructors; True if this call installed the wrappers."""
    from allennlp.data.samplers import BucketBatchSampler, MaxTokensBatchSampler
    from allennlp.data.vocabulary import Vocabulary
    from allennlp.training.checkpointer import Checkpointer
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer

    if getattr(GradientDescentTrainer.__init__, "_green_nlp_patched", False):
        return False
    GradientDescentTrainer.__init__ = _checked(GradientDescentTrainer.__init__, check_trainer)  # type: ignore[method-assign]

    def batch_size(settings: dict[str, Any]) -> None:
        if "batch_size" in settings:
            _positive("data_loader.batch_sampler.batch_size", settings["batch_size"], "instances per batch")

    def max_tokens(settings: dict[str, Any]) -> None:
        if "max_tokens" in settings:
            _positive("data_loader.batch_sampler.max_tokens", settings["max_tokens"], "tokens per batch")

    BucketBatchSampler.__init__ = _checked(BucketBatchSampler.__init__, batch_size)  # type: ignore[method-assign]
    MaxTokensBatchSampler.__init__ = _checked(MaxTokensBatchSampler.__init__, max_tokens)  # type: ignore[method-assign]
    Vocabulary._extend = _checked(Vocabulary._extend, check_vocabulary)  # type: ignore[method-assign]
    Checkpointer.__init__ = _checked(Checkpointer.__init__, check_checkpointer)  # type: ignore[method-assign]
    return True
