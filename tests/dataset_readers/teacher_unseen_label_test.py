"""The teacher's reader (`green_text_classification`, feeding allennlp's `basic_classifier`) on a
gold class the model never saw (issue 34): `allennlp evaluate`'s loop counts it as a wrong
prediction and warns once with the label and its `file:line`; no KeyError."""

import json
import logging

import pytest
from allennlp.commands.train import train_model
from allennlp.common import Params
from allennlp.data.data_loaders import SimpleDataLoader
from allennlp.models.archival import load_archive
from allennlp.training.util import evaluate

from green_nlp.dataset_readers.text_classification import IGNORED_TARGET
from tests.conftest import FIXTURES

TRAIN, DEV = FIXTURES / "dan" / "sst2_train.tsv", FIXTURES / "dan" / "sst2_dev.tsv"


@pytest.fixture(scope="module")
def teacher_like_archive(tmp_path_factory):
    """A `basic_classifier` read by `green_text_classification`, as training_configs/dan/teacher.libsonnet
    builds the MiniLM teacher, with a small word embedding in place of MiniLM (seconds on a CPU)."""
    reader = {"type": "green_text_classification", "skip_unlabeled": True}
    config = {
        "dataset_reader": reader,
        "validation_dataset_reader": reader,
        "train_data_path": str(TRAIN),
        "validation_data_path": str(DEV),
        "model": {
            "type": "basic_classifier",
            "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 8}}},
            "seq2vec_encoder": {"type": "boe", "embedding_dim": 8, "averaged": True},
        },
        "data_loader": {"batch_size": 8, "shuffle": False},
        "trainer": {"num_epochs": 2, "optimizer": {"type": "adam", "lr": 0.05}, "cuda_device": -1},
    }
    folder = tmp_path_factory.mktemp("teacher_like")
    train_model(Params(json.loads(json.dumps(config))), str(folder / "run"))
    return folder / "run" / "model.tar.gz"


def _evaluate(archive_path, data_file):
    archive = load_archive(str(archive_path))
    loader = SimpleDataLoader(list(archive.validation_dataset_reader.read(str(data_file))), batch_size=4)
    loader.index_with(archive.model.vocab)
    return evaluate(archive.model, loader, cuda_device=-1)


def test_an_unseen_class_counts_as_wrong_and_warns_once(teacher_like_archive, tmp_path, caplog):
    original = DEV.read_text(encoding="utf-8")
    examples = len(original.strip().splitlines()) - 1  # the header
    unseen = tmp_path / "unseen.tsv"
    unseen.write_text(
        original.rstrip("\n") + "\n2\tthe film is great\n1\ta moving film\n2\ta boring film\n", encoding="utf-8"
    )
    before = _evaluate(teacher_like_archive, DEV)
    with caplog.at_level(logging.WARNING):
        after = _evaluate(teacher_like_archive, unseen)
    assert before["accuracy"] > 0
    # two more wrong examples and one more of a known class; that one's prediction is checked alone
    one = tmp_path / "one.tsv"
    one.write_text("label\tsentence\n1\ta moving film\n", encoding="utf-8")
    extra_right = _evaluate(teacher_like_archive, one)["accuracy"]
    assert after["accuracy"] == pytest.approx((before["accuracy"] * examples + extra_right) / (examples + 3))
    assert after["loss"] == after["loss"]  # not NaN: the batch holding them has seen labels too
    assert caplog.text.count("gold label '2'") == 1
    assert f"'2' (first at {unseen}:{examples + 2})" in caplog.text


def test_the_unseen_class_is_left_out_of_the_loss(teacher_like_archive):
    from green_nlp.dataset_readers.text_classification import IgnoredUnseenLabel

    vocab = load_archive(str(teacher_like_archive)).model.vocab
    label = IgnoredUnseenLabel("a class never seen", source="x.tsv:3")
    label.index(vocab)
    assert label.as_tensor({}).item() == IGNORED_TARGET
    seen = IgnoredUnseenLabel("1")
    seen.index(vocab)
    assert seen.as_tensor({}).item() == vocab.get_token_index("1", "labels")
