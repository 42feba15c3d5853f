import io
import json
import sys

import pytest
import torch
from allennlp.commands import main
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.training.learning_rate_schedulers import LearningRateScheduler
from allennlp.training.optimizers import Optimizer

from green_nlp.models.ngram_dan import NgramDan
from green_nlp.training.optimizers.hybrid import HybridAdamOptimizer
from tests.conftest import REPO_ROOT
from tests.dan_helpers import DAN_CONFIG


def _model() -> NgramDan:
    torch.manual_seed(0)
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace([f"g{i}" for i in range(20)], "ngrams")
    vocab.add_tokens_to_namespace(["neg", "pos"], "labels")
    return NgramDan(vocab, embedding_dim=6, hidden_dim=5)


def _step(model, optimizer, scale=1.0):
    ngrams = torch.tensor([[2, 3, 4, 0], [5, 6, 0, 0]])
    for p in model.parameters():
        p.grad = None
    (model(ngrams, label=torch.tensor([0, 1]))["loss"] * scale).backward()
    optimizer.step()


def test_parameter_groups_split_sparse_table_from_dense_layers():
    model = _model()
    optimizer = Optimizer.from_params(
        model_parameters=list(model.named_parameters()),
        params=Params({"type": "green_hybrid_adam", "lr": 1e-3, "sparse_lr": 1e-2}),
    )
    assert isinstance(optimizer, HybridAdamOptimizer)
    assert optimizer.sparse_names == ["ngram_embedding.weight"]
    sparse_ids = {id(p) for g in optimizer.sparse_optimizer.param_groups for p in g["params"]}
    dense_ids = {id(p) for g in optimizer.dense_optimizer.param_groups for p in g["params"]}
    assert sparse_ids == {id(model.ngram_embedding.weight)}
    assert dense_ids == {id(p) for n, p in model.named_parameters() if n != "ngram_embedding.weight"}
    assert [g["lr"] for g in optimizer.param_groups] == [1e-2, 1e-3]


def test_only_rows_in_the_batch_change_and_clipping_touches_dense_gradients_only():
    model = _model()
    optimizer = HybridAdamOptimizer(list(model.named_parameters()), max_dense_grad_norm=1e-3)
    before = model.ngram_embedding.weight.detach().clone()
    _step(model, optimizer, scale=1000.0)
    changed = (model.ngram_embedding.weight != before).any(-1).nonzero().flatten().tolist()
    assert changed == [2, 3, 4, 5, 6]
    dense_grads = [p.grad for n, p in model.named_parameters() if n != "ngram_embedding.weight"]
    assert torch.norm(torch.stack([g.norm() for g in dense_grads])).item() == pytest.approx(1e-3, rel=1e-3)
    assert optimizer.last_dense_grad_norm > 1.0  # the norm before clipping
    assert model.ngram_embedding.weight.grad.coalesce().values().abs().max().item() > 1e-2  # sparse: not clipped


def test_wrong_split_is_rejected():
    model = _model()
    with pytest.raises(ConfigurationError, match="no parameter name matches"):
        HybridAdamOptimizer(list(model.named_parameters()), sparse_parameters=["nothing"])
    optimizer = HybridAdamOptimizer(list(model.named_parameters()), sparse_parameters=["ngram_embedding", "hidden"])
    with pytest.raises(ConfigurationError, match="dense gradient"):
        _step(model, optimizer)


@pytest.mark.parametrize("limit", [-1.0, 0.0])
def test_a_clipping_limit_of_zero_or_below_is_refused(limit):
    # torch scales the gradients by the limit over their norm: -1 trained the wrong way, 0 not at all
    with pytest.raises(ConfigurationError, match="max_dense_grad_norm must be positive"):
        HybridAdamOptimizer(list(_model().named_parameters()), max_dense_grad_norm=limit)


# the restored optimizer's rate is stepped by the scheduler alone, to see that the scheduler reaches
# both inner optimizers: torch warns that no optimizer step came first, which is the point here
@pytest.mark.filterwarnings("ignore:Detected call of `lr_scheduler.step\\(\\)` before:UserWarning")
def test_state_round_trip_through_torch_save_keeps_moments_and_scheduler_reach():
    model = _model()
    optimizer = HybridAdamOptimizer(list(model.named_parameters()))
    _step(model, optimizer)
    buffer = io.BytesIO()
    torch.save(optimizer.state_dict(), buffer)
    buffer.seek(0)
    restored = HybridAdamOptimizer(list(model.named_parameters()))
    restored.load_state_dict(torch.load(buffer, weights_only=True))  # as `allennlp train -r` loads it
    weight = model.ngram_embedding.weight
    restored_state, state = restored.sparse_optimizer.state[weight], optimizer.sparse_optimizer.state[weight]
    assert torch.equal(restored_state["exp_avg"], state["exp_avg"])
    scheduler = LearningRateScheduler.from_params(
        optimizer=restored, params=Params({"type": "step", "step_size": 1, "gamma": 0.5})
    )
    scheduler.step()
    assert restored.sparse_optimizer.param_groups[0]["lr"] == pytest.approx(2.5e-4)
    assert restored.dense_optimizer.param_groups[0]["lr"] == pytest.approx(2.5e-4)


def test_allennlp_train_resumes_with_recover(tmp_path, monkeypatch):
    run = tmp_path / "run"
    monkeypatch.chdir(REPO_ROOT)
    command = [
        "allennlp",
        "train",
        str(DAN_CONFIG),
        "-s",
        str(run),
        "-o",
        json.dumps({"trainer.num_epochs": 4, "trainer.patience": 4}),
        "--include-package",
        "green_nlp",
    ]
    monkeypatch.setattr(sys, "argv", command)
    main()
    # Make it look interrupted after epoch 3 of 4: drop the last checkpoint and the outputs.
    for name in (
        "model_state_e4_b0.th",
        "training_state_e4_b0.th",
        "model.tar.gz",
        "metrics.json",
        "metrics_epoch_3.json",
    ):
        (run / name).unlink()
    first_epoch_written = (run / "metrics_epoch_0.json").stat().st_mtime
    state = torch.load(run / "training_state_e3_b0.th", weights_only=True)
    assert set(state["optimizer"]) == {"sparse", "dense"}
    monkeypatch.setattr(sys, "argv", command + ["-r"])
    main()
    assert (run / "model.tar.gz").exists()
    assert (run / "metrics_epoch_0.json").stat().st_mtime == first_epoch_written  # not re-trained
    assert json.loads((run / "metrics.json").read_text())["epoch"] == 3
