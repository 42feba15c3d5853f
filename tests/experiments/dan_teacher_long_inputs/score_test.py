"""green_nlp.data.long_inputs' overrides (experiments/dan_teacher_long_inputs/score.py): the archived teacher, loaded
with them, reads past its 256-piece cut in segments and still gives the same logits on a short review."""

import json

import pytest
import torch
from allennlp.commands.train import TrainModel
from allennlp.common import Params
from allennlp.models.archival import archive_model, load_archive

from green_nlp.data.long_inputs import long_input_overrides
from tests.conftest import REPO_ROOT
from tests.dan_helpers import DAN_FIXTURES


def _teacher_archive(tmp_path, monkeypatch):
    """The IMDB teacher config on the fixture reviews, archived untrained (the weights do not matter
    here, only that both loads share them)."""
    monkeypatch.chdir(REPO_ROOT)
    fixture = str(DAN_FIXTURES / "imdb_tiny.jsonl.gz")
    overrides = {
        "train_data_path": fixture,
        "validation_data_path": fixture,
        "trainer.num_epochs": 1,
        "dataset_reader.sample_every": 1,
        "validation_dataset_reader.sample_every": 1,
        "validation_dataset_reader.sample_offset": 0,
    }
    params = Params.from_file(
        str(REPO_ROOT / "training_configs" / "dan" / "teacher_imdb.jsonnet"), json.dumps(overrides)
    )
    run = tmp_path / "teacher"
    train_loop = TrainModel.from_params(params=params.duplicate(), serialization_dir=str(run), local_rank=0)
    params.to_file(str(run / "config.json"))
    train_loop.model.vocab.save_to_files(str(run / "vocabulary"))
    torch.save(train_loop.model.state_dict(), run / "best.th")
    archive_model(str(run), weights="best.th")
    return run / "model.tar.gz"


def _logits_and_length(archive_file, overrides, text):
    archive = load_archive(str(archive_file), overrides=json.dumps(overrides) if overrides else "")
    reader, model = archive.validation_dataset_reader, archive.model.eval()
    instance = reader.text_to_instance(text)
    reader.apply_token_indexers(instance)
    with torch.no_grad():
        output = model.forward_on_instance(instance)
    return torch.tensor(output["logits"]), len(instance["tokens"])


def test_long_input_overrides_read_past_the_cut_and_keep_short_inputs(tmp_path, monkeypatch):
    archive_file = _teacher_archive(tmp_path, monkeypatch)
    overrides = long_input_overrides(max_length=1024, segment_length=256)
    short = "a short and quite good film ."
    long = " ".join(["the plot drags on and on ."] * 60 + ["but the ending is wonderful !"] * 20)

    short_cut, _ = _logits_and_length(archive_file, None, short)
    short_long, _ = _logits_and_length(archive_file, overrides, short)
    assert torch.allclose(short_cut, short_long, atol=1e-5)

    long_cut, cut_pieces = _logits_and_length(archive_file, None, long)
    long_read, read_pieces = _logits_and_length(archive_file, overrides, long)
    assert cut_pieces == 256 and 256 < read_pieces <= 1024
    assert not torch.allclose(long_cut, long_read, atol=1e-4)  # the tail now counts


def test_a_segment_longer_than_the_input_is_refused():
    with pytest.raises(ValueError, match="segment_length"):
        long_input_overrides(max_length=128, segment_length=256)
