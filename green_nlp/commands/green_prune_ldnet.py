"""`allennlp green-prune-ldnet IN.tar.gz OUT.tar.gz`: delete the LM layers whose gate is 0.

Reads a tagger archive from the layer-selection stage (`STAGE=prune` of
`training_configs/ldnet/tagger.jsonnet`) and writes a new archive whose LMs hold only the kept
layers' weights; its `config.json` describes the smaller LMs, so it reloads and predicts on its
own. A pruned tagger fine-tuned further (`STAGE=finetune`, whose config only points at the pruned
archive) goes through the same command to become an archive that loads without that one.

AllenNLP finds a plugin's subcommands only through a `.allennlp_plugins` file in the working
directory (the clone's root has one), not through `--include-package`; in any other folder, write
one holding the line `green_nlp` first. The archives it reads and writes load from any folder.
"""

import argparse
import json
import logging
from typing import Any

from allennlp.commands.subcommand import Subcommand
from allennlp.models.archival import load_archive

from green_nlp.commands.archive_writing import check_output_archive, write_archive

logger = logging.getLogger(__name__)


def prune_archive(archive_file: str, output_file: str) -> dict[str, Any]:
    """Prune `archive_file` into `output_file`; returns kept layers, parameter and FLOPs counts."""
    from green_nlp.nn.flops import ldnet_lm_flops_per_token
    from green_nlp.training.layer_selection import kept_layers_per_lm, prune_tagger

    check_output_archive(output_file, archive_file)
    archive = load_archive(archive_file)
    model = archive.model
    kept = kept_layers_per_lm(model)
    pruned, config = prune_tagger(model, archive.config)
    write_archive(config.as_dict(quiet=True), pruned.vocab, pruned.state_dict(), output_file)
    summary = {
        "kept_layers": kept,
        "gates": [round(float(z), 4) for z in getattr(model, "lm_gates").detach()],
        "params_before": sum(p.numel() for p in model.parameters()),
        "params_after": sum(p.numel() for p in pruned.parameters()),
        "lm_flops_per_token_before": ldnet_lm_flops_per_token(model),
        "lm_flops_per_token_after": ldnet_lm_flops_per_token(pruned),
    }
    logger.info("pruned %s -> %s: %s", archive_file, output_file, summary)
    return summary


@Subcommand.register("green-prune-ldnet")
class GreenPruneLdNet(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        subparser = parser.add_parser(self.name, description=__doc__, help="Remove LD-Net LM layers whose gate is 0.")
        _add_arguments(subparser)
        subparser.set_defaults(func=_run)
        return subparser


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("archive_file", help="tagger archive after the layer-selection stage")
    parser.add_argument("output_file", help="where to write the pruned model.tar.gz")


def _run(args: argparse.Namespace) -> None:
    print(json.dumps(prune_archive(args.archive_file, args.output_file), indent=2))
