"""A misspelt registered name in a config names the closest registered ones, through AllenNLP's own
`Params.pop_choice` and `from_params`; a name with nothing close keeps AllenNLP's message alone."""

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.modules import Seq2SeqEncoder

from green_nlp.patches import choice_suggestions
from green_nlp.patches.choice_suggestions import close_names


def test_the_patch_is_applied_once() -> None:
    assert choice_suggestions.apply() is False  # by green_nlp.register() in conftest


def test_close_names_come_from_the_choices() -> None:
    assert close_names("lstmm", ["lstm", "gru", "rnn"]) == ["lstm"]
    assert close_names("transformer", ["lstm", "gru"]) == []
    assert close_names(3, ["lstm"]) == []


def test_a_misspelt_type_names_the_registered_one() -> None:
    params = Params({"type": "lstmm", "input_size": 4, "hidden_size": 4})
    with pytest.raises(ConfigurationError, match=r"^'lstmm' is not a registered name for type; did you mean 'lstm'"):
        Seq2SeqEncoder.from_params(params)


def test_the_history_names_the_section_and_allennlps_message_follows() -> None:
    params = Params({"encoder": {"type": "lstmm"}}).pop("encoder")
    with pytest.raises(ConfigurationError) as refused:
        params.pop_choice("type", Seq2SeqEncoder.list_available())
    message = str(refused.value)
    assert message.startswith("'lstmm' is not a registered name for encoder.type; did you mean 'lstm'")
    assert "not in acceptable choices for encoder.type" in message  # AllenNLP's list and advice kept


def test_a_name_with_nothing_close_keeps_allennlps_message() -> None:
    with pytest.raises(ConfigurationError, match=r"^zzzz not in acceptable choices for type"):
        Params({"type": "zzzz"}).pop_choice("type", ["lstm", "gru"])


def test_a_registered_name_still_passes() -> None:
    assert Params({"type": "gru"}).pop_choice("type", ["lstm", "gru"]) == "gru"
