"""Writing an AllenNLP archive from a model changed after training (pruned, factorized), shared by
the commands that do so: AllenNLP's `archive_model` packs a serialization directory, so the
config, vocabulary, meta and weights are staged in a temporary one first."""

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import torch
from allennlp.common.meta import META_NAME, Meta
from allennlp.data import Vocabulary
from allennlp.models.archival import CONFIG_NAME, archive_model


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
