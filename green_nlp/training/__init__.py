from green_nlp.training.callbacks import DistillationCallback, ParserDistillationCallback
from green_nlp.training.distiller import Distillable, Distiller
from green_nlp.training.layer_selection import LayerSelectionRegularizer, ProjectedSgdOptimizer
from green_nlp.training.optimizers import HybridAdamOptimizer

__all__ = [
    "Distillable",
    "DistillationCallback",
    "Distiller",
    "HybridAdamOptimizer",
    "LayerSelectionRegularizer",
    "ParserDistillationCallback",
    "ProjectedSgdOptimizer",
]
