import json
from types import SimpleNamespace

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.training.callbacks import LogitDistillationCallback
from green_nlp.training.logit_distiller import LogitDistiller


class _Student:
    def __init__(self):
        self.distiller = None

    def attach_distiller(self, distiller):
        self.distiller = distiller


def _trainer(student, batches=5, epochs=2):
    return SimpleNamespace(model=student, _num_epochs=epochs, data_loader=[None] * batches)


def test_callback_from_config_attaches_its_distiller_and_detaches_at_the_end():
    callback = TrainerCallback.from_params(
        Params({"type": "green_logit_distillation", "temperature": 3.0, "kl_weight": 0.5, "ce_weight": 2.0}),
        serialization_dir="unused",
    )
    assert isinstance(callback, LogitDistillationCallback)
    student = _Student()
    callback.on_start(_trainer(student))
    assert isinstance(student.distiller, LogitDistiller)
    assert (student.distiller.temperature, student.distiller.kl_weight, student.distiller.ce_weight) == (3.0, 0.5, 2.0)
    callback.on_end(_trainer(student))
    assert student.distiller is None


def test_teacher_annealing_follows_the_batches_and_resumes():
    callback = LogitDistillationCallback("unused", teacher_annealing=True)
    student = _Student()
    callback.on_start(_trainer(student, batches=5, epochs=2))  # 10 training batches in all
    assert (student.distiller.kl_weight, student.distiller.ce_weight) == (1.0, 0.0)
    for _ in range(3):
        callback.on_batch(None, [], {}, {}, epoch=0, batch_number=0, is_training=True)
    callback.on_batch(None, [], {}, {}, epoch=0, batch_number=0, is_training=False)
    assert student.distiller.kl_weight == pytest.approx(0.7)
    resumed = LogitDistillationCallback("unused", teacher_annealing=True)
    resumed.on_start(_trainer(_Student(), batches=5, epochs=2))
    resumed.load_state_dict(json.loads(json.dumps(callback.state_dict())))
    assert resumed.distiller.ce_weight == pytest.approx(0.3)


def test_students_without_attach_distiller_are_refused():
    with pytest.raises(ConfigurationError, match="cannot be distilled"):
        LogitDistillationCallback("unused").on_start(_trainer(object()))
    with pytest.raises(ConfigurationError, match="temperature"):
        LogitDistillationCallback("unused", temperature=-1)
