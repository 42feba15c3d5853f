"""A model folder naming a family this runtime does not know is refused as a broken folder, by name."""

import json
import shutil
from pathlib import Path

import pytest

import green_nlp
from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.model_folder import resolve_model


def test_an_unknown_family_names_the_folder(tmp_path: Path):
    folder = tmp_path / "summarizer-model"
    shutil.copytree(resolve_model("en-sst2-sentiment"), folder)
    meta = json.loads((folder / "green_model.json").read_text())
    meta["family"] = "summarizer"
    (folder / "green_model.json").write_text(json.dumps(meta))
    with pytest.raises(ModelFolderError, match=r"summarizer-model: unknown model family 'summarizer'.*classifier"):
        green_nlp.load(folder)
