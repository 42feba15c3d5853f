import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import Batch
from allennlp.models.archival import load_archive
from allennlp.nn import RegularizerApplicator
from allennlp.training.optimizers import Optimizer

from green_nlp.training.layer_selection import (
    LayerSelectionRegularizer,
    ProjectedSgdOptimizer,
    layer_selection_penalty,
    prune_tagger,
)
from tests.conftest import FIXTURES, REPO_ROOT

ORIGIN = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"


@pytest.fixture(autouse=True)
def _fixture_data(monkeypatch):
    monkeypatch.setenv("LDNET_DATA", "fixtures/ldnet/data")
    monkeypatch.setenv("LDNET_LM_PRESET", "tiny")
    monkeypatch.chdir(REPO_ROOT)


def test_penalty_follows_the_paper_formulas():
    z = torch.tensor([1.0, 0.5, 0.2, 0.0])
    binary = 0.0 + 0.25 + 0.16 + 0.0  # sum z(1-z)
    sparsity = 1.7  # sum |z|
    # 3 gates on, target 2: both terms
    assert float(layer_selection_penalty(z, 0.05, 2)) == pytest.approx(0.05 * (binary + sparsity))
    # target reached (3 <= 3): the margin switches sparsity off, the binary term stays
    assert float(layer_selection_penalty(z, 0.05, 3)) == pytest.approx(0.05 * binary)
    # at z = 1 the two terms' gradients cancel: only the task loss moves a gate off 1
    ones = torch.ones(3, requires_grad=True)
    layer_selection_penalty(ones, 0.05, 1).backward()
    assert torch.allclose(ones.grad, torch.zeros(3))


def test_regularizer_applies_to_the_gates_by_name():
    module = torch.nn.Module()
    module.lm_gates = torch.nn.Parameter(torch.tensor([0.5, 0.5]))
    module.other = torch.nn.Parameter(torch.ones(3))
    applicator = RegularizerApplicator([("^lm_gates$", LayerSelectionRegularizer(strength=0.1, target_layers=1))])
    assert float(applicator(module).detach()) == pytest.approx(0.1 * (0.5 + 1.0))


def test_projection_keeps_gates_in_the_unit_interval():
    gates = torch.nn.Parameter(torch.tensor([0.05, 0.5, 0.95]))
    weight = torch.nn.Parameter(torch.tensor([0.05, 0.5, 0.95]))
    optimizer = ProjectedSgdOptimizer([("lm_gates", gates), ("weight", weight)], lr=1.0, momentum=0.9)
    for _ in range(5):
        optimizer.zero_grad()
        (((gates - torch.tensor([-3.0, 0.5, 4.0])) ** 2).sum() + (weight * 10).sum()).backward()
        optimizer.step()
        assert gates.min() >= 0.0 and gates.max() <= 1.0
    assert gates[0] == 0.0 and gates[2] == 1.0  # clamped exactly, so a gate can reach 0 and be pruned
    assert weight.min() < 0.0  # other parameters are not projected
    with pytest.raises(ConfigurationError, match="gates_trainable"):
        ProjectedSgdOptimizer([("weight", weight)], lr=0.1)
    built = Optimizer.from_params(
        model_parameters=[("lm_gates", gates)], params=Params({"type": "green_projected_sgd", "lr": 0.1})
    )
    assert isinstance(built, ProjectedSgdOptimizer)


def _gated(gates):
    archive = load_archive(str(ORIGIN))
    model = archive.model.eval()
    with torch.no_grad():
        model.lm_gates.copy_(torch.tensor(gates))
    return model, archive


def _logits(model, reader, words):
    batch = Batch([reader.text_to_instance(w) for w in words])
    batch.index_instances(model.vocab)
    with torch.no_grad():
        return model(**batch.as_tensor_dict())["logits"]


WORDS = [["John", "Smith", "visited", "Paris", "."], ["Reuters", "said", "unknownword", "rose", "5", "percent", "."]]


@pytest.mark.parametrize("gates", [[1, 0, 1, 0, 0, 1], [0, 0, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0]])
def test_pruned_model_matches_the_gated_model_and_holds_fewer_weights(gates):
    model, archive = _gated([float(g) for g in gates])
    pruned, config = prune_tagger(model, archive.config)
    pruned.eval()
    assert torch.allclose(
        _logits(pruned, archive.dataset_reader, WORDS), _logits(model, archive.dataset_reader, WORDS), atol=1e-6
    )
    lms = config["model"]["language_models"]
    assert [lm["num_layers"] for lm in lms] == [n for n in (sum(gates[:3]), sum(gates[3:])) if n]
    assert all("pretrained_file" not in lm for lm in lms)
    assert sum(p.numel() for p in pruned.parameters()) < sum(p.numel() for p in model.parameters())
    assert pruned.lm_projection.in_features == 6 * sum(gates)  # 6 units per tiny LM layer


def test_pruning_everything_is_refused():
    model, archive = _gated([0.0] * 6)
    with pytest.raises(ConfigurationError, match="every LM layer was pruned"):
        prune_tagger(model, archive.config)
