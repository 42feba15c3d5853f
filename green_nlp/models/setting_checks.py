"""Checks of a model's numeric settings that name the setting: torch's own errors (`dropout
probability has to be between 0 and 1, but got 1.5`) say neither which of a model's several
dropouts is wrong nor that it came from the config."""

from allennlp.common.checks import ConfigurationError


def check_dropouts(model: str, **dropouts: float) -> None:
    """Each dropout (name=value) of `model` (its registered name) must be a probability below 1: at
    1 every unit is dropped."""
    for name, value in dropouts.items():
        if not 0.0 <= value < 1.0:
            raise ConfigurationError(
                f"{model}: {name} must be at least 0 and below 1 (a dropout probability), got {value}"
            )
