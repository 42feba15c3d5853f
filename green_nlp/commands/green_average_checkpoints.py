"""`allennlp green-average-checkpoints RUN_DIR --output averaged.tar.gz`: archive the mean of a
run's checkpoints (by default `best.th` and the newest `model_state_e*_b*.th`).

    allennlp green-average-checkpoints runs/ewt_gold_upos --output runs/ewt_gold_upos/averaged.tar.gz
    allennlp evaluate runs/ewt_gold_upos/averaged.tar.gz en_ewt-ud-dev.conllu --include-package green_nlp

Pick between the averaged and the plain model on the dev set, never the test set; the parser
benchmark does exactly that. The archive carries the run's own config and vocabulary.
"""

import argparse
import json
import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any, Optional

import torch
from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from allennlp.common.meta import META_NAME, Meta
from allennlp.models.archival import CONFIG_NAME, archive_model

from green_nlp.commands.archive_writing import check_output_archive
from green_nlp.training.checkpoint_averaging import best_and_last, load_and_average

logger = logging.getLogger(__name__)


def average_run(serialization_dir: str, output_file: str, checkpoints: Optional[list[str]] = None) -> dict[str, Any]:
    """Write the archive; returns which checkpoints went in."""
    run = Path(serialization_dir)
    check_output_archive(output_file)
    if not (run / CONFIG_NAME).exists() or not (run / "vocabulary").is_dir():
        raise ConfigurationError(f"{run} is not an AllenNLP serialization directory (no {CONFIG_NAME} or vocabulary/)")
    paths = [run / c if (run / c).exists() else Path(c) for c in checkpoints] if checkpoints else best_and_last(run)
    for path in paths:
        if not path.exists():
            raise ConfigurationError(f"checkpoint {path} does not exist")
    if len({path.resolve() for path in paths}) < 2:
        raise ConfigurationError(f"averaging needs at least two different checkpoints, got {paths}")
    averaged = load_and_average(paths)
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp)
        (staging / CONFIG_NAME).write_text((run / CONFIG_NAME).read_text())
        shutil.copytree(run / "vocabulary", staging / "vocabulary")  # archive_model reads it from here
        Meta.new().to_file(str(staging / META_NAME))
        torch.save(averaged, staging / "weights.th")
        Path(output_file).parent.mkdir(parents=True, exist_ok=True)
        archive_model(str(staging), weights="weights.th", archive_path=output_file)
    summary = {"checkpoints": [path.name for path in paths], "output": str(output_file)}
    logger.info("averaged %s -> %s", summary["checkpoints"], output_file)
    return summary


@Subcommand.register("green-average-checkpoints")
class GreenAverageCheckpoints(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        help_text = "Archive the average of a run's checkpoints (best.th + the last epoch by default)."
        subparser = parser.add_parser(
            self.name, description=__doc__, help=help_text, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        subparser.add_argument("serialization_dir", help="the training run's folder (-s of allennlp train)")
        subparser.add_argument("--output", required=True, help="the model.tar.gz to write")
        subparser.add_argument(
            "--checkpoints",
            nargs="+",
            default=None,
            help="weight files to average (names inside the run folder, or paths); "
            "default: best.th and the newest model_state_e*_b*.th",
        )
        subparser.set_defaults(
            func=lambda args: print(json.dumps(average_run(args.serialization_dir, args.output, args.checkpoints)))
        )
        return subparser
