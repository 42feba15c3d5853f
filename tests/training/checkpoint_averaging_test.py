import pytest
import torch
from allennlp.common.checks import ConfigurationError

from green_nlp.training.checkpoint_averaging import average_state_dicts, best_and_last, epoch_checkpoints


def test_floating_tensors_are_averaged_and_others_kept():
    a = {"w": torch.tensor([1.0, 2.0]), "steps": torch.tensor(7)}
    b = {"w": torch.tensor([3.0, 6.0]), "steps": torch.tensor(7)}
    averaged = average_state_dicts([a, b])
    assert torch.equal(averaged["w"], torch.tensor([2.0, 4.0]))
    assert averaged["steps"].item() == 7 and averaged["w"].dtype == torch.float32


def test_mismatched_checkpoints_are_refused():
    with pytest.raises(ConfigurationError, match="same parameters"):
        average_state_dicts([{"w": torch.zeros(2)}, {"v": torch.zeros(2)}])
    with pytest.raises(ConfigurationError, match="has shape"):
        average_state_dicts([{"w": torch.zeros(2)}, {"w": torch.zeros(3)}])
    with pytest.raises(ConfigurationError, match="cannot be averaged"):
        average_state_dicts([{"n": torch.tensor(1)}, {"n": torch.tensor(2)}])
    with pytest.raises(ConfigurationError, match="no checkpoints"):
        average_state_dicts([])


def test_checkpoints_are_found_in_epoch_order(tmp_path):
    for name in ("model_state_e10_b0.th", "model_state_e9_b0.th", "best.th", "training_state_e10_b0.th"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in epoch_checkpoints(tmp_path)] == ["model_state_e9_b0.th", "model_state_e10_b0.th"]
    assert [p.name for p in best_and_last(tmp_path)] == ["best.th", "model_state_e10_b0.th"]
    (tmp_path / "best.th").unlink()
    with pytest.raises(ConfigurationError, match="needs best.th"):
        best_and_last(tmp_path)
