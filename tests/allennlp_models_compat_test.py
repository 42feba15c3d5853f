"""green_nlp's readers feeding allennlp-models' own models, trained by the real `allennlp train`.

Each run starts in a temporary folder outside the clone, as another AllenNLP project would: the
config (from fixtures/allennlp_models/, its data paths made absolute) is written there and only
`--include-package green_nlp` brings in the readers.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from allennlp.common import Params

from tests.conftest import FIXTURES, REPO_ROOT

CONFIGS = FIXTURES / "allennlp_models"


def _train_outside_the_repo(config_name: str, tmp_path: Path) -> dict[str, float]:
    params = Params.from_file(str(CONFIGS / config_name)).as_dict(quiet=True)
    for key in ("train_data_path", "validation_data_path"):
        params[key] = str(REPO_ROOT / params[key])
    params["trainer"]["num_epochs"] = 1
    work = tmp_path / "elsewhere"
    work.mkdir()
    assert REPO_ROOT not in work.resolve().parents
    (work / "config.json").write_text(json.dumps(params), encoding="utf-8")
    # this checkout's green_nlp, whichever clone the shared venv's editable install points to
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", "train", "config.json", "-s", "run", "--include-package", "green_nlp"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert (work / "run" / "model.tar.gz").is_file()
    return json.loads((work / "run" / "metrics.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "config_name, metric",
    [
        ("biaffine_parser.jsonnet", "LAS"),
        ("crf_tagger.jsonnet", "f1-measure-overall"),
    ],
)
def test_green_reader_trains_an_allennlp_models_model(config_name, metric, tmp_path):
    metrics = _train_outside_the_repo(config_name, tmp_path)
    assert metrics["epoch"] == 0
    for split in ("training", "validation"):
        assert 0.0 <= metrics[f"{split}_{metric}"] <= 1.0
    if metric == "LAS":
        assert metrics["validation_UAS"] >= metrics["validation_LAS"]
