"""A misspelt config key is a ConfigurationError naming its section and the closest valid key
(issue 44: `"num_epoch": 1` trained silently with the default; `max_sentense_length` gave a raw
TypeError), while every key allennlp accepts on purpose still builds."""

import os

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader
from allennlp.training import Trainer

from green_nlp.patches import config_keys
from green_nlp.patches.config_keys import unknown_key_message
from tests.conftest import REPO_ROOT


def test_a_misspelt_reader_key_names_the_section_and_the_closest_key():
    params = Params({"type": "green_conllu_dependencies", "max_sentense_length": 5}, history="dataset_reader.")
    with pytest.raises(ConfigurationError) as error:
        DatasetReader.from_params(params)
    assert str(error.value).strip("'\"") == (
        "dataset_reader.max_sentense_length: ConlluDependenciesReader has no parameter 'max_sentense_length'; "
        "did you mean 'max_sentence_length'?"
    )


def test_valid_reader_keys_still_build_including_those_passed_on_through_kwargs():
    reader = DatasetReader.from_params(
        Params({"type": "green_conllu_dependencies", "max_sentence_length": 5, "max_instances": 3})
    )
    assert reader._max_sentence_length == 5 and reader.max_instances == 3


def test_a_misspelt_trainer_key_is_refused_before_anything_is_built(tmp_path):
    params = Params({"type": "gradient_descent", "num_epoch": 1}, history="trainer.")
    with pytest.raises(ConfigurationError, match=r"trainer\.num_epoch: .*did you mean 'num_epochs'\?"):
        Trainer.from_params(params, model=None, serialization_dir=str(tmp_path), data_loader=None)


def test_a_key_without_a_close_match_lists_the_valid_ones():
    message = unknown_key_message("model.", "Tiny", "zzz", ["alpha", "beta"])
    assert message == "model.zzz: Tiny has no parameter 'zzz'; its parameters are alpha, beta"


def test_a_class_without_kwargs_gets_the_suggestion_too():
    from allennlp.data.token_indexers import TokenIndexer

    with pytest.raises(ConfigurationError, match=r"indexer\.namespce: .*did you mean 'namespace'\?"):
        TokenIndexer.from_params(Params({"type": "single_id", "namespce": "tokens"}, history="indexer."))


def test_allennlp_train_stops_on_a_misspelt_trainer_key(tmp_path):
    """The real command path: the quickstart config with `num_epoch` never starts training."""
    from allennlp.commands.train import train_model_from_file

    cwd = os.getcwd()
    os.chdir(REPO_ROOT)  # the config names fixture paths relative to the repo root
    try:
        with pytest.raises(ConfigurationError, match=r"trainer\.num_epoch: .*'num_epochs'"):
            train_model_from_file(
                str(REPO_ROOT / "training_configs" / "parser" / "quickstart.jsonnet"),
                str(tmp_path / "run"),
                overrides='{"trainer": {"num_epoch": 1}}',
            )
    finally:
        os.chdir(cwd)
    assert not (tmp_path / "run" / "model.tar.gz").exists()


def test_the_patch_is_applied_once():
    assert config_keys.apply() is False  # by green_nlp.register() in conftest
