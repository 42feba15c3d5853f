"""A dropout outside [0, 1) in a config is refused naming the model and the setting (torch's own
error names neither), before any training starts (through `green-nlp train`:
tests/patches/serialization_dir_advice_test.py)."""

import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.models.setting_checks import check_dropouts


@pytest.mark.parametrize("value", [-0.5, 1.0, 1.5])
def test_a_dropout_outside_zero_to_one_is_named(value):
    with pytest.raises(ConfigurationError, match=rf"^m: mlp_dropout must be at least 0 and below 1 .*got {value}$"):
        check_dropouts("m", embedding_dropout=0.3, mlp_dropout=value)
    check_dropouts("m", embedding_dropout=0.0, mlp_dropout=0.99)
