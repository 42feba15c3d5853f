"""A distillation callback of another model family is refused by name before any teacher loads
(a parser under green_logit_distillation ended in an AttributeError in its first batch; a DAN under
green_parser_distillation in one about text_field_embedder)."""

from types import SimpleNamespace

import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.training.callbacks.logit_distillation import LogitDistillationCallback
from green_nlp.training.callbacks.parser_distillation import ParserDistillationCallback
from green_nlp.training.distiller import Distillable
from green_nlp.training.logit_distiller import LogitDistiller
from green_nlp.training.parser_distiller import ParserDistiller


class ParserLike(Distillable):
    distiller_kind = ParserDistiller


class DanLike(Distillable):
    distiller_kind = LogitDistiller


def test_a_parser_under_the_logit_callback_is_refused() -> None:
    trainer = SimpleNamespace(model=ParserLike())
    with pytest.raises(
        ConfigurationError, match="ParserLike is distilled with a ParserDistiller.*use green_parser_distillation"
    ):
        LogitDistillationCallback("unused").on_start(trainer)


def test_a_dan_under_the_parser_callback_is_refused_before_its_teacher_loads() -> None:
    trainer = SimpleNamespace(model=DanLike())
    callback = ParserDistillationCallback("unused", "no/such/teacher.tar.gz")  # never opened
    with pytest.raises(
        ConfigurationError, match="DanLike is distilled with a LogitDistiller.*use green_logit_distillation"
    ):
        callback.on_start(trainer)


def test_the_families_name_their_distillers() -> None:
    from green_nlp.models.biaffine_parser import BiaffineDependencyParser
    from green_nlp.models.ngram_dan import NgramDan

    assert BiaffineDependencyParser.distiller_kind is ParserDistillationCallback.distiller_kind is ParserDistiller
    assert NgramDan.distiller_kind is LogitDistillationCallback.distiller_kind is LogitDistiller
