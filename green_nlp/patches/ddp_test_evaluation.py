"""`evaluate_on_test` after DDP training: over the whole test file, outside the process group.

`TrainModel.finish` runs the test evaluation in the primary worker only, after the others have
finished, with the process group still up: a metric that reduces across workers then waits for
peers that are gone (gloo: "Connection closed by peer"; NCCL: a hang), and the test instances were
read at start-up as this worker's shard, so the figures would cover part of the file. The
replacement leaves the process group and drops those instances first, so the test evaluation runs
as in one process over the whole file. Outside distributed runs nothing changes.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional

import torch.distributed as dist

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

if TYPE_CHECKING:
    from allennlp.commands.train import TrainModel

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

ORIGINAL_TRAIN_MODEL_FINISH: Optional[Callable[..., Any]] = None


def _finish(self: "TrainModel", metrics: dict[str, Any]) -> Any:
    """allennlp's `finish`, with the test evaluation (primary worker only) outside the process group."""
    from allennlp.common.util import is_distributed

    assert ORIGINAL_TRAIN_MODEL_FINISH is not None  # set by `apply` before this can be called
    if is_distributed() and self.evaluation_data_loader is not None and self.evaluate_on_test:
        dist.destroy_process_group()  # the other workers have already left: nothing to wait for
        loader = self.evaluation_data_loader
        reader = getattr(loader, "reader", None)
        if reader is not None:
            reader._set_distributed_info(None)  # readers without manual sharding cached their rank
        if getattr(loader, "_instances", None) is not None:
            setattr(loader, "_instances", None)  # loaded at start-up as this worker's shard: read the whole file
    return ORIGINAL_TRAIN_MODEL_FINISH(self, metrics)


def apply() -> bool:
    """Install the replacement `TrainModel.finish`; True if this call did."""
    global ORIGINAL_TRAIN_MODEL_FINISH
    from allennlp.commands.train import TrainModel

    if TrainModel.finish is _finish:
        return False
    ORIGINAL_TRAIN_MODEL_FINISH = TrainModel.finish
    TrainModel.finish = _finish  # type: ignore[method-assign]
    return True
