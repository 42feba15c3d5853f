import json
import subprocess
import sys

import torch
from allennlp.models.archival import archive_model, load_archive
from allennlp.predictors import Predictor

from green_nlp.commands.green_prune_ldnet import prune_archive
from tests.conftest import FIXTURES, REPO_ROOT

ORIGIN = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"
TEXT = "Angela Merkel visited Paris on Monday . Shares in BMW rose 5 percent ."


def _gated_archive(tmp_path, gates):
    """The fixture tagger with the given gates, archived as the layer-selection stage would."""
    archive = load_archive(str(ORIGIN))
    with torch.no_grad():
        archive.model.lm_gates.copy_(torch.tensor(gates))
    serialization = tmp_path / "select"
    serialization.mkdir()
    archive.config.to_file(str(serialization / "config.json"))
    archive.model.vocab.save_to_files(str(serialization / "vocabulary"))
    torch.save(archive.model.state_dict(), serialization / "weights.th")
    archive_model(str(serialization), weights="weights.th")
    return serialization / "model.tar.gz"


def test_pruned_archive_reloads_from_its_config_and_predicts_like_the_gated_model(tmp_path):
    gated = _gated_archive(tmp_path, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    pruned = tmp_path / "pruned" / "model.tar.gz"
    summary = prune_archive(str(gated), str(pruned))
    assert summary["kept_layers"] == [[0], [1]]
    assert summary["lm_flops_per_token_after"] < summary["lm_flops_per_token_before"] / 2
    reloaded = load_archive(str(pruned))  # rebuilt from config.json alone
    config = reloaded.config.as_dict()
    assert [lm["num_layers"] for lm in config["model"]["language_models"]] == [1, 1]
    assert reloaded.model.language_models[1].rnn.layers[0].weight_ih_l0.shape == (4 * 6, 8)
    outputs = [
        Predictor.from_archive(load_archive(str(path)), "green_sentence_tagger").predict_json({"sentence": TEXT})
        for path in (gated, pruned)
    ]
    assert outputs[0] == outputs[1] and len(outputs[1]["tags"]) == 14


def test_subcommand_writes_an_archive(tmp_path):
    gated = _gated_archive(tmp_path, [0.0, 1.0, 1.0, 0.0, 0.0, 0.3])
    pruned = tmp_path / "pruned.tar.gz"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "green-prune-ldnet",
            str(gated),
            str(pruned),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    summary = json.loads(result.stdout[result.stdout.index("{") :])
    assert summary["kept_layers"] == [[1, 2], [2]] and summary["gates"][5] == 0.3
    assert load_archive(str(pruned)).model.lm_gates.tolist() == [1.0, 1.0, 0.30000001192092896]
