"""LD-Net's layer selection: a regularizer that drives LM layer gates to 0 or 1, projected SGD that
keeps them in [0, 1], and the surgery that removes the layers whose gate reached 0.

Paper (Sec. 2.4) and its reference code: with gates z, loss += lambda0 * sum z(1 - z) (binary
penalty, always) + lambda0 * sum z (sparsity, only while more than lambda1 gates are non-zero);
after every SGD-with-momentum step z is clamped to [0, 1].
"""

import copy
import os
import re
from collections.abc import Sequence
from typing import Any, Optional

import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.file_utils import cached_path
from allennlp.models import Model
from allennlp.models.archival import CONFIG_NAME, extracted_archive
from allennlp.nn.regularizers import Regularizer
from allennlp.training.optimizers import Optimizer, make_parameter_groups

from green_nlp.modules.dense_lstm import kept_input_columns


def layer_selection_penalty(gates: torch.Tensor, strength: float, target_layers: int) -> torch.Tensor:
    """`strength * sum z(1-z) + [count(z > 0) > target_layers] * strength * sum z`."""
    penalty = strength * (gates * (1 - gates)).sum()
    if int((gates > 0).sum()) > target_layers:
        penalty = penalty + strength * gates.sum()
    return penalty


@Regularizer.register("green_layer_selection")
class LayerSelectionRegularizer(Regularizer):
    """
    Apply to the tagger's `lm_gates` (regex `^lm_gates$`); one parameter holds the gates of all
    LMs, so the margin counts layers across both directions, as LD-Net does.

    # Parameters

    strength : `float`, optional (default = `0.05`)
        lambda0 of the reference code.
    target_layers : `int`, optional (default = `2`)
        lambda1: the sparsity term switches off once at most this many gates are non-zero.
    """

    def __init__(self, strength: float = 0.05, target_layers: int = 2) -> None:
        if strength < 0 or target_layers < 0:
            raise ConfigurationError(f"strength and target_layers must be >= 0, got {strength}, {target_layers}")
        self.strength = strength
        self.target_layers = target_layers

    def __call__(self, parameter: torch.Tensor) -> torch.Tensor:
        return layer_selection_penalty(parameter, self.strength, self.target_layers)


@Optimizer.register("green_projected_sgd")
class ProjectedSgdOptimizer(Optimizer, torch.optim.SGD):
    """
    SGD (with momentum) whose step is followed by clamping the parameters named by `projected`
    (regexes) to `[low, high]`: projected gradient descent for the layer gates.

    # Parameters

    model_parameters : `List[Tuple[str, torch.nn.Parameter]]`
    lr : `float`
    projected : `List[str]`, optional (default = `["^lm_gates$"]`)
    parameter_groups, momentum, weight_decay, nesterov : as AllenNLP's `sgd`
    """

    def __init__(
        self,
        model_parameters: list[tuple[str, torch.nn.Parameter]],
        lr: float,
        parameter_groups: Optional[list[tuple[list[str], dict[str, Any]]]] = None,
        momentum: float = 0.9,
        weight_decay: float = 0.0,
        nesterov: bool = False,
        projected: Sequence[str] = ("^lm_gates$",),
        low: float = 0.0,
        high: float = 1.0,
    ) -> None:
        self._projected = [p for name, p in model_parameters if any(re.search(r, name) for r in projected)]
        if not self._projected:
            raise ConfigurationError(
                f"no trainable parameter matches {list(projected)}; set the tagger's `gates_trainable: true`"
            )
        self._bounds = (low, high)
        super().__init__(
            params=make_parameter_groups(model_parameters, parameter_groups),
            lr=lr,
            momentum=momentum,
            weight_decay=weight_decay,
            nesterov=nesterov,
        )

    @torch.no_grad()
    def step(self, closure=None):
        loss = super().step(closure)
        for parameter in self._projected:
            parameter.clamp_(*self._bounds)
        return loss


def kept_layers_per_lm(model: Any) -> list[list[int]]:  # an LdNetTagger (torch modules type their parts loosely)
    """Indices of each LM's layers whose gate is non-zero."""
    return [[i for i, z in enumerate(gates.tolist()) if z > 0] for gates in model.gates_per_lm()]


def pruned_config(config: Params, kept: list[list[int]]) -> Params:
    """The tagger config with each LM shrunk to its kept layers; LMs with none left are dropped,
    and the training-only keys (archives to copy, initializers, trainable gates) removed."""
    raw = copy.deepcopy(config.as_dict(quiet=True))
    model = raw["model"] = _archived_model_config(raw["model"])
    lms = model.get("language_models", [])
    if len(lms) != len(kept):
        raise ConfigurationError(f"config has {len(lms)} language models, the weights {len(kept)}")
    model["language_models"] = []
    for lm, layers in zip(lms, kept):
        if layers:
            lm = {k: v for k, v in lm.items() if k != "pretrained_file"}
            lm["num_layers"] = len(layers)
            model["language_models"].append(lm)
    if not model["language_models"]:
        raise ConfigurationError("every LM layer was pruned; train the NoLM tagger instead")
    for key in ("regularizer", "gates_trainable", "target_lm_layers"):
        model.pop(key, None)
    _drop_keys(model, ("pretrained_file", "initializer"))  # the weights come with the archive
    raw.pop("vocabulary", None)  # the archive's own vocabulary is used
    return Params(raw)


def _archived_model_config(model: dict[str, Any]) -> dict[str, Any]:
    """A `from_archive` model block (a fine-tuned tagger) replaced by the archived tagger's own, so
    the archive written from it no longer needs the one it was fine-tuned from."""
    while model.get("type") == "from_archive":  # only the config is needed, not the model it builds
        with extracted_archive(cached_path(model["archive_file"])) as directory:
            model = Params.from_file(os.path.join(directory, CONFIG_NAME)).as_dict(quiet=True)["model"]
    return model


def _drop_keys(tree: Any, keys: Sequence[str]) -> None:
    """Remove `keys` at any depth of nested dicts and lists."""
    if isinstance(tree, dict):
        for key in keys:
            tree.pop(key, None)
        children = list(tree.values())
    else:
        children = tree if isinstance(tree, list) else []
    for child in children:
        _drop_keys(child, keys)


def prune_tagger(model: Any, config: Params) -> tuple[Model, Params]:
    """A new tagger holding only the kept LM layers' weights, and the config that rebuilds it.

    With the dense connections, each kept layer's input weights lose the columns that read removed
    layers, and the LM projection loses the columns of removed layers' outputs; the kept gates stay.
    """
    kept = kept_layers_per_lm(model)
    new_config = pruned_config(config, kept)
    new_model: Any = Model.from_params(vocab=model.vocab, params=new_config.duplicate().pop("model"))
    state = {
        k: v
        for k, v in model.state_dict().items()
        if not k.startswith("language_models.") and k not in ("lm_gates", "lm_projection.weight")
    }
    projection_columns: list[int] = []
    offset = 0
    new_index = 0
    gates = []
    for lm, layers, lm_gates in zip(model.language_models, kept, model.gates_per_lm()):
        hidden = lm.rnn.hidden_dim
        if layers:
            new_lm = new_model.language_models[new_index]
            new_lm.embedding.load_state_dict(lm.embedding.state_dict())
            new_lm.rnn.load_state_dict(lm.rnn.kept_copy(layers).state_dict())
            projection_columns += [offset + c for c in kept_input_columns(0, hidden, layers)]
            gates.append(lm_gates.detach()[layers])
            new_index += 1
        offset += lm.rnn.num_layers * hidden
    state["lm_gates"] = torch.cat(gates)
    state["lm_projection.weight"] = model.lm_projection.weight.detach()[:, projection_columns]
    missing, unexpected = new_model.load_state_dict(state, strict=False)
    left = [k for k in missing if not k.startswith("language_models.")]
    if left or unexpected:
        raise RuntimeError(f"pruned model does not fit the weights: missing {left}, unexpected {unexpected}")
    new_model.lm_gates.requires_grad_(False)
    return new_model, new_config
