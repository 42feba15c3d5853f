"""The seed paper's hybrid Adam: SparseAdam for the sparse n-gram table, Adam/AdamW for the rest.

Adam keeps two dense moment tensors per parameter and updates every row each step; on a table of
millions of n-grams that is most of the training time and memory. SparseAdam touches only the rows
a batch used. Gradient clipping applies to the dense parameters only: clipping a sparse gradient
by a global norm would mix in rows the batch never saw. Leave the trainer's own `grad_norm` unset
(it would clip every gradient, sparse ones included); set `max_dense_grad_norm` here instead.
"""

import re
from typing import Any, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.training.optimizers import Optimizer


@Optimizer.register("green_hybrid_adam")
class HybridAdamOptimizer(Optimizer):
    """
    # Parameters

    model_parameters : `List[Tuple[str, torch.nn.Parameter]]`
        Filled in by AllenNLP.
    sparse_parameters : `List[str]`, optional (default = `["ngram_embedding"]`)
        Regexes (searched in parameter names) selecting the parameters with sparse gradients.
    lr : `float`, optional (default = `5e-4`, the reference implementation)
    sparse_lr : `float`, optional (default = `lr`)
    betas, eps : Adam's.
    weight_decay : `float`, optional (default = `0.0`)
        Dense parameters only (SparseAdam has none).
    decoupled_weight_decay : `bool`, optional (default = `False`)
        AdamW instead of Adam for the dense parameters.
    max_dense_grad_norm : `float`, optional
        Clip the dense parameters' gradients to this total norm before each step.
    """

    def __init__(
        self,
        model_parameters: list[tuple[str, torch.nn.Parameter]],
        sparse_parameters: Optional[list[str]] = None,
        lr: float = 5e-4,
        sparse_lr: Optional[float] = None,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        decoupled_weight_decay: bool = False,
        max_dense_grad_norm: Optional[float] = None,
        parameter_groups: Any = None,
    ) -> None:
        if parameter_groups:
            raise ConfigurationError(
                "green_hybrid_adam makes its own two groups; use sparse_parameters, not parameter_groups"
            )
        if max_dense_grad_norm is not None and not max_dense_grad_norm > 0:
            # torch scales the gradients by the limit over their norm: below zero it trained the wrong way
            raise ConfigurationError(
                f"max_dense_grad_norm must be positive (leave it out for no clipping), got {max_dense_grad_norm}"
            )
        patterns = sparse_parameters if sparse_parameters is not None else ["ngram_embedding"]
        trainable = [(name, p) for name, p in model_parameters if p.requires_grad]
        self.sparse_names = [name for name, _ in trainable if any(re.search(r, name) for r in patterns)]
        sparse = [p for name, p in trainable if name in self.sparse_names]
        dense = [p for name, p in trainable if name not in self.sparse_names]
        if not sparse:
            raise ConfigurationError(
                f"no parameter name matches sparse_parameters {patterns}; names are "
                f"{[name for name, _ in trainable][:10]}"
            )
        if not dense:
            raise ConfigurationError("every parameter matched sparse_parameters; dense layers need Adam")
        self.sparse_optimizer = torch.optim.SparseAdam(sparse, lr=sparse_lr or lr, betas=betas, eps=eps)
        dense_class = torch.optim.AdamW if decoupled_weight_decay else torch.optim.Adam
        self.dense_optimizer = dense_class(dense, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
        self.max_dense_grad_norm = max_dense_grad_norm
        self.last_dense_grad_norm: Optional[float] = None
        # The groups are the inner optimizers' own dicts, so LR schedulers reach both.
        super().__init__(self.sparse_optimizer.param_groups + self.dense_optimizer.param_groups, {})

    def _dense_parameters(self) -> list[torch.nn.Parameter]:
        return [p for group in self.dense_optimizer.param_groups for p in group["params"] if p.grad is not None]

    @torch.no_grad()
    def step(self, closure: Any = None) -> None:  # type: ignore[override]
        for group in self.sparse_optimizer.param_groups:
            for p in group["params"]:
                if p.grad is not None and not p.grad.is_sparse:
                    raise ConfigurationError(
                        "a sparse_parameters match has a dense gradient; give its embedding "
                        "sparse=True or change sparse_parameters"
                    )
        dense = self._dense_parameters()
        if any(p.grad is not None and p.grad.is_sparse for p in dense):
            raise ConfigurationError("a dense parameter has a sparse gradient; add its name to sparse_parameters")
        if self.max_dense_grad_norm is not None and dense:
            self.last_dense_grad_norm = float(torch.nn.utils.clip_grad_norm_(dense, self.max_dense_grad_norm))
        self.sparse_optimizer.step()
        self.dense_optimizer.step()

    def state_dict(self) -> dict[str, Any]:
        return {"sparse": self.sparse_optimizer.state_dict(), "dense": self.dense_optimizer.state_dict()}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.sparse_optimizer.load_state_dict(state_dict["sparse"])
        self.dense_optimizer.load_state_dict(state_dict["dense"])
        # torch replaces the inner groups' dicts on load: point at the new ones again.
        self.param_groups = self.sparse_optimizer.param_groups + self.dense_optimizer.param_groups
