"""`allennlp green-label-teacher --ray`: a teacher's records for chunks of input, on Ray actors.

The driver reads the corpus, cuts it into the same chunks as the one-process run, and writes the
cache itself with the same `CacheWriter`, in corpus order: so the cache is the one-process cache
(the same header, records and order; resumable the same way), wherever the actors ran. Each actor
labels a chunk with the library's labeller (`green_nlp.data.teacher_labelling`, the code the
one-process run calls), so every chunk's records are the ones the one-process run computes.
"""

import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from green_nlp.distributed_ray.options import RayOptions, require_ray
from green_nlp.distributed_ray.pool import ActorPool, connected, crash_point, wait_until_loaded


class TeacherWorker:
    """Holds one teacher (loaded once); answers chunks with their records (logits, or parses).
    A Ray actor class once `ActorPool` makes it one (`pool.remote_class`)."""

    def __init__(
        self,
        archive_file: str,
        overrides: dict[str, Any],
        cuda_device: int,
        threads: int,
        top_k_heads: int = 4,
        top_k_labels: int = 4,
    ) -> None:
        import torch

        import green_nlp
        from green_nlp.data.teacher_labelling import load_labeller

        green_nlp.register()
        torch.set_num_threads(threads)
        self.labeller = load_labeller(archive_file, cuda_device, overrides, top_k_heads, top_k_labels)

    def ready(self) -> bool:
        return True

    def describe(self) -> tuple[str, dict[str, Any]]:
        return self.labeller.kind, self.labeller.describe()

    def label(self, chunk: list[Any], batch_size: int) -> list[Any]:
        crash_point()
        return self.labeller.label(chunk, batch_size)


class RayTeacher:
    """A pool of `TeacherWorker`s with `LocalTeacher`'s interface (`kind`, `describe`, `label`)."""

    def __init__(
        self,
        archive_file: str,
        overrides: dict[str, Any],
        options: RayOptions,
        top_k_heads: int = 4,
        top_k_labels: int = 4,
    ) -> None:
        self.archive_file = str(Path(archive_file).resolve()) if Path(archive_file).exists() else archive_file
        self.overrides, self.options = overrides, options
        self.top_k_heads, self.top_k_labels = top_k_heads, top_k_labels
        self.kind = ""
        self._description: dict[str, Any] = {}
        self.connect_seconds = self.load_seconds = 0.0  # what starting costs, apart from labelling

    def __enter__(self) -> "RayTeacher":
        clock = time.perf_counter()
        self._connection = connected(self.options.address)
        self.connect_seconds = self._connection.__enter__()
        cuda_device = 0 if self.options.gpus_per_actor > 0 else -1  # Ray shows an actor its GPU as device 0
        self.pool = ActorPool(
            TeacherWorker,
            (
                self.archive_file,
                self.overrides,
                cuda_device,
                max(1, int(self.options.cpus_per_actor)),
                self.top_k_heads,
                self.top_k_labels,
            ),
            self.options,
        )
        wait_until_loaded(self.pool)
        self.kind, self._description = require_ray().get(self.pool.actors[0].describe.remote())
        self.load_seconds = time.perf_counter() - clock - self.connect_seconds
        return self

    def describe(self) -> dict[str, Any]:
        return self._description

    def label(self, chunks: Iterable[list[Any]], batch_size: int) -> Iterator[tuple[list[Any], list[Any]]]:
        """(chunk, its records) in chunk order, a few chunks in flight on every actor."""
        yield from self.pool.map_ordered("label", chunks, batch_size)

    def __exit__(self, *exc: Any) -> None:
        try:
            self.pool.close()
        finally:
            self._connection.__exit__(*exc)
