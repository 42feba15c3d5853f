"""Vocabulary type green_lemma_lexicon: training with lib.with_ud_heads(..., lemma_dictionary=true)
puts the training file's lemma dictionary into the archive, and the loaded model consults it."""

import os
import tarfile

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary

import green_nlp.models.biaffine_parser  # noqa: F401 (registers the vocabulary type)
from green_nlp.runtime.lemma_lexicon import NAMESPACE, LemmaLexicon
from tests.conftest import FIXTURES, REPO_ROOT

DATA = FIXTURES / "ud" / "synthetic-tiny-ud-columns.conllu"


def test_training_with_the_option_puts_the_dictionary_in_the_archive(tmp_path):
    from allennlp.commands.train import train_model
    from allennlp.models.archival import load_archive

    config = tmp_path / "config.jsonnet"
    config.write_text(
        "local lib = import '" + str(REPO_ROOT / "training_configs/parser/biaffine_parser.libsonnet") + "';\n"
        "local base = import '" + str(FIXTURES / "parser/experiment_ud_heads.jsonnet") + "';\n"
        "lib.with_ud_heads(base, lemma_dictionary=true) + {trainer+: {num_epochs: 1}}\n",
        encoding="utf-8",
    )
    cwd = os.getcwd()
    os.chdir(REPO_ROOT)
    try:
        params = Params.from_file(str(config))
        assert params["vocabulary"]["type"] == "green_lemma_lexicon"
        train_model(params, str(tmp_path / "run"))
    finally:
        os.chdir(cwd)
    archive = tmp_path / "run" / "model.tar.gz"
    with tarfile.open(archive) as handle:
        lines = handle.extractfile(f"vocabulary/{NAMESPACE}.txt").read().decode("utf-8").splitlines()
    assert sorted(lines) == LemmaLexicon.from_conllu(DATA).to_lines()
    model = load_archive(str(archive)).model
    assert model.lemma_lexicon is not None and model.lemma_lexicon.lookup("sees", "VERB") == "see"


def test_a_bad_dictionary_file_is_a_configuration_error(tmp_path):
    bad = tmp_path / "train.conllu"
    bad.write_text("1\ta\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="lemma_lexicon_file .*train.conllu:1: expected 10"):
        Vocabulary.from_params(Params({"type": "green_lemma_lexicon", "lemma_lexicon_file": str(bad)}), instances=[])
    with pytest.raises(ConfigurationError, match="min_share must be in"):
        Vocabulary.from_params(
            Params({"type": "green_lemma_lexicon", "lemma_lexicon_file": str(DATA), "lemma_lexicon_min_share": 2}),
            instances=[],
        )
