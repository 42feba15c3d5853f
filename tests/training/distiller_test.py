"""One Distiller interface for both families, held the same way by the parser and the DAN."""

import pytest
import torch
from allennlp.common import Params
from allennlp.data import Vocabulary
from allennlp.models.archival import load_archive
from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.models.biaffine_parser import BiaffineDependencyParser
from green_nlp.models.ngram_dan import NgramDan
from green_nlp.training.callbacks import ParserDistillationCallback
from green_nlp.training.distiller import Distillable, Distiller
from green_nlp.training.logit_distiller import LogitDistiller
from green_nlp.training.parser_distiller import ParserDistiller
from tests.conftest import FIXTURES

TEACHER = str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz")


def _dan() -> NgramDan:
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["a", "b", "c"], "ngrams")
    vocab.add_tokens_to_namespace(["neg", "pos"], "labels")
    return NgramDan(vocab, embedding_dim=4)


@pytest.fixture(scope="module")
def parser() -> BiaffineDependencyParser:
    return load_archive(TEACHER).model


class _ModuleDistiller(Distiller, torch.nn.Module):
    def __init__(self) -> None:
        Distiller.__init__(self)
        torch.nn.Module.__init__(self)

    def loss(self, inputs) -> torch.Tensor:
        return torch.zeros(())


def test_both_families_hold_a_distiller_the_same_way(parser):
    assert isinstance(parser, Distillable) and isinstance(_dan(), Distillable)
    assert issubclass(ParserDistiller, Distiller) and issubclass(LogitDistiller, Distiller)


def test_parser_attaches_and_detaches_without_touching_its_state_dict(parser):
    before = set(parser.state_dict())
    distiller = ParserDistiller(load_archive(TEACHER).model)
    parser.attach_distiller(distiller)
    assert parser.distiller is distiller
    assert set(parser.state_dict()) == before
    assert not any(child is distiller for child in parser.modules())
    parser.detach_distiller()
    assert parser.distiller is None  # the parser's own loss


def test_dan_falls_back_to_its_default_distiller():
    model = _dan()
    default = model.distiller
    assert isinstance(default, LogitDistiller) and default.temperature == 1.0
    hot = LogitDistiller(temperature=4.0)
    model.attach_distiller(hot)
    assert model.distiller is hot
    model.attach_distiller(None)
    assert model.distiller is default


def test_only_plain_distillers_are_attached(parser):
    with pytest.raises(TypeError, match="must be a green_nlp Distiller"):
        parser.attach_distiller(object())
    with pytest.raises(TypeError, match="state_dict"):
        parser.attach_distiller(_ModuleDistiller())
    with pytest.raises(TypeError, match="must be a green_nlp Distiller"):
        _dan().attach_distiller(torch.nn.Linear(2, 2))


def test_bad_temperature_is_refused_by_every_distiller(parser):
    from allennlp.common.checks import ConfigurationError

    for make in (lambda: LogitDistiller(temperature=0), lambda: ParserDistiller(parser, temperature=-1.0)):
        with pytest.raises(ConfigurationError, match="temperature"):
            make()
    distiller = LogitDistiller(temperature=2.0)
    with pytest.raises(ConfigurationError, match="temperature"):
        distiller.temperature = float("nan")  # checked whenever it is set, not at every loss
    assert distiller.temperature == 2.0


@pytest.mark.parametrize("name", ["green_parser_distillation", "green_distillation"])
def test_the_parser_callback_resolves_under_its_name_and_its_old_one(name):
    assert TrainerCallback.by_name(name) is ParserDistillationCallback
    callback = TrainerCallback.from_params(
        Params({"type": name, "teacher_archive": TEACHER, "temperature": 2.0}), serialization_dir="unused"
    )
    assert isinstance(callback, ParserDistillationCallback) and callback.temperature == 2.0
