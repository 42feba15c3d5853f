"""`allennlp green-label-teacher --ray`: the teacher's logits for chunks of documents, on Ray actors.

The driver reads the corpus, cuts it into the same chunks as the one-process run, and writes the
cache itself with the same `CacheWriter`, in corpus order: so the cache is the one-process cache
(the same header, records and order; resumable the same way), wherever the actors ran. Each actor
labels a chunk with the one-process code (`_predict_logits`: length-sorted batches of the chunk),
so every chunk's logits are the ones the one-process run computes.
"""

import time
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

import ray

from green_nlp.distributed_ray.options import RayOptions
from green_nlp.distributed_ray.pool import ActorPool, connected, crash_point, wait_until_loaded


@ray.remote
class TeacherWorker:
    """Holds one teacher (loaded once); answers chunks of documents with their logits."""

    def __init__(self, archive_file: str, overrides: Dict[str, Any], cuda_device: int, threads: int) -> None:
        import torch

        import green_nlp
        from green_nlp.commands.green_label_teacher import load_teacher

        green_nlp.register()
        torch.set_num_threads(threads)
        self.model, self.reader, self.labels, self.label_names = load_teacher(archive_file, cuda_device, overrides)

    def ready(self) -> bool:
        return True

    def describe(self) -> Tuple[List[str], Optional[Dict[str, str]]]:
        return self.labels, self.label_names

    def label(self, chunk: List[Any], batch_size: int) -> List[List[float]]:
        from green_nlp.commands.green_label_teacher import _predict_logits

        crash_point()
        return _predict_logits(self.model, self.reader, chunk, batch_size)


class RayTeacher:
    """A pool of `TeacherWorker`s with `LocalTeacher`'s interface (`labels`, `label_names`, `label`)."""

    def __init__(self, archive_file: str, overrides: Dict[str, Any], options: RayOptions) -> None:
        self.archive_file = str(Path(archive_file).resolve()) if Path(archive_file).exists() else archive_file
        self.overrides, self.options = overrides, options
        self.labels: List[str] = []
        self.label_names: Optional[Dict[str, str]] = None
        self.connect_seconds = self.load_seconds = 0.0  # what starting costs, apart from labelling

    def __enter__(self) -> "RayTeacher":
        clock = time.perf_counter()
        self._connection = connected(self.options.address)
        self.connect_seconds = self._connection.__enter__()
        cuda_device = 0 if self.options.gpus_per_actor > 0 else -1  # Ray shows an actor its GPU as device 0
        self.pool = ActorPool(
            TeacherWorker,
            (self.archive_file, self.overrides, cuda_device, max(1, int(self.options.cpus_per_actor))),
            self.options,
        )
        wait_until_loaded(self.pool)
        self.labels, self.label_names = ray.get(self.pool.actors[0].describe.remote())
        self.load_seconds = time.perf_counter() - clock - self.connect_seconds
        return self

    def label(self, chunks: Iterable[List[Any]], batch_size: int) -> Iterator[Tuple[List[Any], List[List[float]]]]:
        """(chunk, its logits) in chunk order, a few chunks in flight on every actor."""
        yield from self.pool.map_ordered("label", chunks, batch_size)

    def __exit__(self, *exc: Any) -> None:
        try:
            self.pool.close()
        finally:
            self._connection.__exit__(*exc)
