"""`allennlp green-label-teacher`: write a teacher's logits for a corpus once (the distillation
corpus of sparse distillation), for every later student run to read.

    allennlp green-label-teacher runs/dan/imdb/teacher/model.tar.gz \\
        "$GREEN_NLP_DATA/cls/imdb/train.jsonl.gz" "$GREEN_NLP_DATA/cls/imdb/train_unsup.jsonl.gz" \\
        --output runs/dan/imdb/kd.teacher.jsonl

Streaming (a chunk of documents in memory at a time), with a progress bar, and resumable: run
the same command again after an interruption and it continues after the last complete record.
`--shard i/N` labels every N-th document starting at i into its own file, for N processes; the
DAN reader reads the shards back with a glob (`kd.teacher.*.jsonl`). `--ray [ADDRESS]` labels the
chunks on a pool of Ray actors that each load the teacher once and writes the same cache, in the
same order, still resumable (docs/distributed.md).
"""

import argparse
import itertools
import json
import logging
import os
from contextlib import ExitStack
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

import torch
from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from allennlp.common.tqdm import Tqdm
from allennlp.models.archival import load_archive

from green_nlp.commands.green_predict import parse_shard
from green_nlp.data.teacher_cache import CacheWriter
from green_nlp.dataset_readers.text_classification import (
    FORMATS,
    SPLITS,
    TextExample,
    check_split,
    read_examples,
    split_heldout,
    subsample,
)
from green_nlp.distributed_ray.options import RayOptions, add_ray_arguments, ray_options

logger = logging.getLogger(__name__)


@Subcommand.register("green-label-teacher")
class GreenLabelTeacher(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Write a teacher classifier's logits for text files into a distillation cache."
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("archive_file", help="the teacher's model.tar.gz")
        subparser.add_argument("input_files", nargs="+", help="classification files (sst2 tsv, trec, jsonl[.gz])")
        subparser.add_argument("--output", required=True, help="the cache to write (JSON lines)")
        subparser.add_argument("--format", default="auto", choices=FORMATS, help="input format (default: by name)")
        subparser.add_argument("--fine-labels", action="store_true", help="TREC: keep fine labels")
        subparser.add_argument(
            "--max-examples-per-input",
            type=int,
            default=None,
            help="label at most this many examples of each input (CPU-sized runs)",
        )
        subparser.add_argument(
            "--skip-per-input",
            type=int,
            default=0,
            help="leave out the first examples of each input (e.g. those labeled earlier)",
        )
        subparser.add_argument(
            "--every-nth",
            type=int,
            default=1,
            help="take every n-th example of each input (IMDB's files are sorted by label)",
        )
        subparser.add_argument(
            "--split",
            default="all",
            choices=SPLITS,
            help="label only the train or dev part of a file with no dev set (see --dev-every)",
        )
        subparser.add_argument(
            "--dev-every",
            type=int,
            default=10,
            help="with --split: every n-th example is the dev part, the others train",
        )
        subparser.add_argument("--batch-size", type=int, default=32)
        subparser.add_argument("--shard", default=None, help="i/N: label documents i, i+N, i+2N, ...")
        subparser.add_argument("--cuda-device", type=int, default=-1)
        subparser.add_argument("--threads", type=int, default=None, help="torch CPU threads")
        subparser.add_argument(
            "-o",
            "--overrides",
            default="",
            help="JSON overrides of the teacher's archived config, as for `allennlp predict` "
            "(e.g. longer inputs read in segments); recorded in the cache's header",
        )
        add_ray_arguments(subparser)
        subparser.set_defaults(func=_run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        on_ray = ray_options(args)
    except ValueError as error:
        raise ConfigurationError(str(error)) from None
    label_corpus(
        args.archive_file,
        args.input_files,
        args.output,
        args.format,
        args.fine_labels,
        args.max_examples_per_input,
        args.batch_size,
        args.shard,
        args.cuda_device,
        args.every_nth,
        args.skip_per_input,
        split=args.split,
        dev_every=args.dev_every,
        overrides=args.overrides,
        ray=on_ray,
    )


def _corpus(
    inputs: List[str],
    format: str,
    fine_labels: bool,
    max_per_input: Optional[int],
    every: int,
    skip: int,
    split: str = "all",
    dev_every: int = 10,
) -> Iterator[TextExample]:
    for path in inputs:
        examples = split_heldout(read_examples(path, format, fine_labels), split, dev_every)
        examples = itertools.islice(examples, skip, None)
        yield from subsample(examples, every, max_per_input)


def label_corpus(
    archive_file: str,
    inputs: List[str],
    output: str,
    format: str = "auto",
    fine_labels: bool = False,
    max_per_input: Optional[int] = None,
    batch_size: int = 32,
    shard: Optional[str] = None,
    cuda_device: int = -1,
    every_nth: int = 1,
    skip_per_input: int = 0,
    chunk_batches: int = 8,
    split: str = "all",
    dev_every: int = 10,
    overrides: str = "",
    ray: Optional[RayOptions] = None,
) -> int:
    """Label (the rest of) the corpus; returns the number of records the cache now holds. With `ray`,
    the chunks are labelled on Ray actors (see green_nlp.distributed_ray.teacher), in the same order."""
    if batch_size < 1:
        raise ConfigurationError(f"--batch-size must be positive, got {batch_size}")
    try:
        check_split(split, dev_every)
    except ValueError as error:
        raise ConfigurationError(str(error)) from error
    try:  # parsed, so the header compares what they say, not how they were written
        parsed_overrides = json.loads(overrides) if overrides.strip() else {}
    except json.JSONDecodeError as error:
        raise ConfigurationError(f"--overrides is not JSON ({error.msg}): {overrides!r}") from error
    shard_index, shard_count = parse_shard(shard) if shard else (0, 1)
    with ExitStack() as stack:
        if ray is None:
            teacher: Any = LocalTeacher(archive_file, cuda_device, parsed_overrides)
        else:
            from green_nlp.distributed_ray.teacher import RayTeacher

            teacher = stack.enter_context(RayTeacher(archive_file, parsed_overrides, ray))
        header: Dict[str, Any] = {
            "labels": teacher.labels,
            "archive": os.path.basename(archive_file),
            "inputs": [os.path.basename(p) for p in inputs],
            "shard": f"{shard_index}/{shard_count}",
            "max_examples_per_input": max_per_input,
            "every_nth": every_nth,
            "skip_per_input": skip_per_input,
        }
        if teacher.label_names:  # the students' readers must name the labels the same way (checked when they read)
            header["label_names"] = dict(teacher.label_names)
        if split != "all":
            header.update(split=split, dev_every=dev_every)
        if parsed_overrides:
            header["overrides"] = parsed_overrides
        writer = CacheWriter(output, header)
        corpus = _corpus(inputs, format, fine_labels, max_per_input, every_nth, skip_per_input, split, dev_every)
        examples = itertools.islice(corpus, shard_index, None, shard_count)
        examples = itertools.islice(examples, writer.done, None)  # resume after what is already written
        if writer.done:
            logger.info("%s: %d records already written, continuing", output, writer.done)
        chunks = iter(lambda: list(itertools.islice(examples, batch_size * chunk_batches)), [])
        progress = Tqdm.tqdm(desc="teacher labels", unit="doc", initial=writer.done)
        try:
            for chunk, logits in teacher.label(chunks, batch_size):
                for example, row in zip(chunk, logits):
                    writer.write(example.text, example.label, row, example.source)
                progress.update(len(chunk))
        finally:
            writer.close()
            progress.close()
    return writer.done


def load_teacher(
    archive_file: str, cuda_device: int = -1, overrides: Optional[Dict[str, Any]] = None
) -> Tuple[Any, Any, List[str], Optional[Dict[str, str]]]:
    """(model in eval mode, its validation reader, label names in index order, the reader's label_names)."""
    archive = load_archive(archive_file, cuda_device=cuda_device, overrides=overrides or {})
    model, reader = archive.model.eval(), archive.validation_dataset_reader
    namespace = getattr(model, "_label_namespace", "labels")
    names = model.vocab.get_index_to_token_vocabulary(namespace)
    label_names = getattr(reader, "label_names", None)
    return model, reader, [names[i] for i in range(len(names))], dict(label_names) if label_names else None


class LocalTeacher:
    """The teacher in this process: chunks labelled one after the other."""

    def __init__(self, archive_file: str, cuda_device: int = -1, overrides: Optional[Dict[str, Any]] = None) -> None:
        self.model, self.reader, self.labels, self.label_names = load_teacher(archive_file, cuda_device, overrides)

    def label(
        self, chunks: Iterable[List[TextExample]], batch_size: int
    ) -> Iterator[Tuple[List[TextExample], List[List[float]]]]:
        for chunk in chunks:
            yield chunk, _predict_logits(self.model, self.reader, chunk, batch_size)


def _predict_logits(model: Any, reader: Any, chunk: List[TextExample], batch_size: int) -> List[List[float]]:
    """Logits in chunk order; batches are formed from length-sorted documents (less padding)."""
    order = sorted(range(len(chunk)), key=lambda i: len(chunk[i].text))
    logits: List[Optional[List[float]]] = [None] * len(chunk)
    for start in range(0, len(order), batch_size):
        indices = order[start : start + batch_size]
        instances = [reader.text_to_instance(chunk[i].text) for i in indices]
        for instance in instances:
            reader.apply_token_indexers(instance)
        with torch.no_grad():
            outputs = model.forward_on_instances(instances)
        for i, output in zip(indices, outputs):
            logits[i] = [float(x) for x in output["logits"]]
    return logits  # type: ignore[return-value]
