"""`allennlp green-export`: a trained archive -> a folder the torch-free runtime loads.

    allennlp green-export runs/ewt_raw/model.tar.gz exported/ewt_raw \\
        --card experiments/model_cards/parser_ewt_green_nlp_raw_text.md

The folder holds `model.onnx`, `model.int8.onnx` (onnxruntime dynamic quantization) and
`green_model.json`; load it with `green_nlp.runtime.load(folder)` (see docs/runtime.md).
"""

import argparse
import logging
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from allennlp.commands.subcommand import Subcommand

logger = logging.getLogger(__name__)

# what torch's C++ ONNX exporter writes straight to file descriptor 2 for every LSTM it exports
# (`[W<date> <time> shape_type_inference.cpp:<line>] Warning: The shape inference of
# prim::PackPadded type is missing, so it may result in wrong shape inference for the exported graph. ...`)
TORCH_SHAPE_WARNING = re.compile(
    rb"shape_type_inference\.cpp:\d+\] Warning: The shape inference of prim::\w+ type is missing"
)


@Subcommand.register("green-export")
class GreenExport(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Export a model.tar.gz to ONNX (fp32 and int8) for green_nlp's runtime."
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("archive_file", help="the model.tar.gz to export")
        subparser.add_argument("output_dir", help="the folder to write (created if missing)")
        subparser.add_argument(
            "--card",
            default=None,
            help="a model card (experiments/model_cards/*.md) whose test figures and license go into the folder",
        )
        subparser.add_argument(
            "--language",
            default=None,
            help="spaCy's tokenizer language for raw text in the runtime (a parser's or tagger's; default en): "
            "the language of the treebank the model learnt from",
        )
        subparser.add_argument(
            "--overwrite",
            action="store_true",
            help="replace the exported model of the same family that output_dir holds (its files are removed first)",
        )
        subparser.add_argument(
            "--verbose",
            action="store_true",
            help="show AllenNLP's INFO log of loading the archive and torch's ONNX export warnings",
        )
        subparser.set_defaults(func=_run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    from green_nlp.export import export_archive

    with ExitStack() as stack:
        if not args.verbose:
            stack.enter_context(_quiet_export())
        folder = export_archive(
            args.archive_file, args.output_dir, card=args.card, overwrite=args.overwrite, language=args.language
        )
    print(f"exported {args.archive_file} -> {folder}")


@contextmanager
def _quiet_export() -> Iterator[None]:
    """AllenNLP's INFO lines (every parameter of the archive's config) and torch's tracer warnings
    about shapes (Python's, and its C++ exporter's for each packed LSTM) made an export print some 160
    lines around its one line of result; the export checks
    its graphs itself (fp32 against torch, int8 against fp32), and `--verbose` shows them all."""
    with ExitStack() as stack:
        stack.enter_context(_without_torch_shape_warnings())
        stack.enter_context(_quiet_python_export())
        yield


@contextmanager
def _without_torch_shape_warnings() -> Iterator[None]:
    """torch's C++ exporter writes its shape-inference warnings for packed LSTM sequences to file
    descriptor 2 itself, past Python's warnings filters and logging. What the process writes there
    meanwhile goes to a temporary file and back to stderr afterwards, those lines left out."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to filter
        yield
        return
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            kept = b"".join(line for line in captured if not TORCH_SHAPE_WARNING.search(line))
            while kept:
                kept = kept[os.write(2, kept) :]


@contextmanager
def _quiet_python_export() -> Iterator[None]:
    import torch.jit

    loggers = [logging.getLogger(name) for name in ("allennlp", "green_nlp.export")]  # the latter: the result again
    levels = [each.level for each in loggers]
    for each in loggers:
        each.setLevel(logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", torch.jit.TracerWarning)
            warnings.filterwarnings("ignore", module=r"torch\.onnx")
            yield
    finally:
        for each, level in zip(loggers, levels):
            each.setLevel(level)
