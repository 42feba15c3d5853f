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

A parser teacher (`green_biaffine_parser`) parses raw text instead: each document is split into
sentences and tokenized as the runtime does, and each sentence's 1-best tree and top-k arc / label
distributions go into a parser cache (green_nlp.data.teacher_cache), fingerprinted with the
archive's sha256 so that a rerun with another teacher is refused (docs/parser.md, "Teacher-scale
distillation"):

    allennlp green-label-teacher runs/parser/ud_ewt/minilm_teacher/model.tar.gz \\
        "$GREEN_NLP_DATA/cls/imdb/train_unsup.jsonl.gz" --output runs/parser/ud_ewt/silver/imdb.jsonl

The labelling itself is library code (green_nlp.data.teacher_labelling), shared with `--ray`.
"""

import argparse
import itertools
import json
import logging
import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Optional

import torch
from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from allennlp.common.tqdm import Tqdm

from green_nlp.commands.green_predict import parse_shard
from green_nlp.data.teacher_cache import PARSER_CACHE_VERSION, PARSER_COMPARED, PARSER_KIND, CacheWriter, file_sha256
from green_nlp.data.teacher_labelling import LocalTeacher, load_teacher, raw_sentences
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
from green_nlp.line_stream import same_file

logger = logging.getLogger(__name__)


@Subcommand.register("green-label-teacher")
class GreenLabelTeacher(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Write a teacher's outputs for text files into a distillation cache: a classifier's logits, "
            "or a parser's trees and top-k distributions for the sentences of raw text."
        )
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
        subparser.add_argument(
            "--top-k-heads", type=int, default=4, help="parser teachers: heads kept per word (default 4)"
        )
        subparser.add_argument(
            "--top-k-labels",
            type=int,
            default=4,
            help="parser teachers: labels kept at each kept head, and UPOS tags per word (default 4)",
        )
        subparser.add_argument(
            "--max-words",
            type=int,
            default=100,
            help="parser teachers: leave out sentences longer than this many words (default 100)",
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
        top_k_heads=args.top_k_heads,
        top_k_labels=args.top_k_labels,
        max_words=args.max_words,
    )


def _corpus(
    inputs: list[str],
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


def check_output_apart(output: str, read: list[str]) -> None:
    """Refuse a cache that is a file the command reads: the cache's header was written over an
    input before a line of it was read (its data lost, then "file contains no examples")."""
    for path in read:
        if same_file(Path(path), Path(output)):
            raise ConfigurationError(
                f"--output {output} is the input {path}: writing the cache there would overwrite it; "
                "give another file name"
            )


def label_corpus(  # noqa: C901 (one flat pass: resume, read, label, write, report; split, it reads worse)
    archive_file: str,
    inputs: list[str],
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
    top_k_heads: int = 4,
    top_k_labels: int = 4,
    max_words: Optional[int] = 100,
) -> int:
    """Label (the rest of) the corpus; returns the number of records the cache now holds. With `ray`,
    the chunks are labelled on Ray actors (see green_nlp.distributed_ray.teacher), in the same order.
    A parser teacher writes a parser cache of the inputs' sentences (`top_k_*`, `max_words`)."""
    if batch_size < 1:
        raise ConfigurationError(f"--batch-size must be positive, got {batch_size}")
    if top_k_heads < 1 or top_k_labels < 1:
        raise ConfigurationError(
            f"--top-k-heads and --top-k-labels must be positive, got {top_k_heads}, {top_k_labels}"
        )
    if max_words is not None and max_words < 1:
        raise ConfigurationError(f"--max-words must be positive, got {max_words}")
    try:
        check_split(split, dev_every)
    except ValueError as error:
        raise ConfigurationError(str(error)) from error
    try:  # parsed, so the header compares what they say, not how they were written
        parsed_overrides = json.loads(overrides) if overrides.strip() else {}
    except json.JSONDecodeError as error:
        raise ConfigurationError(f"--overrides is not JSON ({error.msg}): {overrides!r}") from error
    check_output_apart(output, [archive_file, *inputs])
    shard_index, shard_count = parse_shard(shard) if shard else (0, 1)
    with ExitStack() as stack:
        if ray is None:
            teacher: Any = LocalTeacher(archive_file, cuda_device, parsed_overrides, top_k_heads, top_k_labels)
        else:
            from green_nlp.distributed_ray.teacher import RayTeacher

            teacher = stack.enter_context(RayTeacher(archive_file, parsed_overrides, ray, top_k_heads, top_k_labels))
        common: dict[str, Any] = {
            "archive": os.path.basename(archive_file),
            "inputs": [os.path.basename(p) for p in inputs],
            "shard": f"{shard_index}/{shard_count}",
        }
        if parsed_overrides:
            common["overrides"] = parsed_overrides
        if teacher.kind == PARSER_KIND:
            if split != "all" or every_nth != 1 or skip_per_input:
                raise ConfigurationError(
                    "--split, --every-nth and --skip-per-input select classification examples; a parser "
                    "teacher labels every sentence of its inputs (use --max-examples-per-input, --shard)"
                )
            header = {
                "kind": PARSER_KIND,
                "teacher_sha256": file_sha256(archive_file),
                **teacher.describe(),
                **common,
                "max_words": max_words,
                "max_documents_per_input": max_per_input,
            }
            writer = CacheWriter(output, header, compared=PARSER_COMPARED, version=PARSER_CACHE_VERSION)
            items: Iterator[Any] = raw_sentences(inputs, format, max_words, max_per_input)
            unit = "sentence"
        else:
            description = teacher.describe()
            header = {
                "labels": description["labels"],
                **common,
                "max_examples_per_input": max_per_input,
                "every_nth": every_nth,
                "skip_per_input": skip_per_input,
            }
            if description.get("label_names"):  # the students' readers must name the labels the same way
                header["label_names"] = dict(description["label_names"])
            if split != "all":
                header.update(split=split, dev_every=dev_every)
            writer = CacheWriter(output, header)
            items = _corpus(inputs, format, fine_labels, max_per_input, every_nth, skip_per_input, split, dev_every)
            unit = "doc"
        items = itertools.islice(items, shard_index, None, shard_count)
        items = itertools.islice(items, writer.done, None)  # resume after what is already written
        if writer.done:
            logger.info("%s: %d records already written, continuing", output, writer.done)
        chunks = iter(lambda: list(itertools.islice(items, batch_size * chunk_batches)), [])
        progress = Tqdm.tqdm(desc="teacher labels", unit=unit, initial=writer.done)
        try:
            for chunk, outputs in teacher.label(chunks, batch_size):
                if teacher.kind == PARSER_KIND:
                    for record in outputs:
                        writer.write_record(record)
                else:
                    for example, row in zip(chunk, outputs):
                        writer.write(example.text, example.label, row, example.source)
                progress.update(len(chunk))
        finally:
            writer.close()
            progress.close()
    return writer.done


__all__ = ["GreenLabelTeacher", "LocalTeacher", "label_corpus", "load_teacher"]
