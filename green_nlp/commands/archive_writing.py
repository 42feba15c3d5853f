"""Writing an AllenNLP archive from a model changed after training (pruned, factorized), shared by
the commands that do so: AllenNLP's `archive_model` packs a serialization directory, so the
config, vocabulary, meta and weights are staged in a temporary one first."""

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.common.meta import META_NAME, Meta
from allennlp.data import Vocabulary
from allennlp.models.archival import CONFIG_NAME, archive_model

from green_nlp.line_stream import same_file


def check_output_archive(output: str, archive_file: Optional[str] = None) -> None:
    """Refuse, before anything is loaded, an output that would overwrite what the command reads or
    more than it names: the input archive itself (`--output` = the archive pruned it in place,
    the model gone), or a folder, where AllenNLP's `archive_model` writes `model.tar.gz` inside it
    (a run's folder: over the run's own archive, silently)."""
    if Path(output).is_dir():
        raise ConfigurationError(
            f"the output {output} is a folder: give the archive's file name (e.g. {Path(output) / 'pruned.tar.gz'}); "
            "into a folder AllenNLP writes model.tar.gz, over a run's own archive"
        )
    if archive_file is not None and same_file(Path(archive_file), Path(output)):
        raise ConfigurationError(
            f"the output {output} is the input archive {archive_file}: writing there would replace the model "
            "it reads; give another file name"
        )


def write_archive(config: dict[str, Any], vocab: Vocabulary, state: dict[str, torch.Tensor], output: str) -> None:
    """`output` (a model.tar.gz) holding `config`, `vocab` and the weights `state`."""
    with tempfile.TemporaryDirectory() as directory:
        with open(os.path.join(directory, CONFIG_NAME), "w") as handle:
            json.dump(config, handle, indent=2)
        vocab.save_to_files(os.path.join(directory, "vocabulary"))
        Meta.new().to_file(os.path.join(directory, META_NAME))
        torch.save(state, os.path.join(directory, "weights.th"))
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        archive_model(directory, weights="weights.th", archive_path=output)
