"""An archive is all `allennlp predict` needs: run from a folder outside the clone, with the archive
copied elsewhere, `GREEN_NLP_DATA` pointing at an empty folder, and every file the archived config
names (training data, the n-gram vocabulary's texts, word vectors) gone."""

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.dataset_readers.text_classification import read_examples
from tests.conftest import FIXTURES, REPO_ROOT
from tests.dan_helpers import DAN_CONFIG, DAN_FIXTURES, sst2_label_names, train_dan


def _predict_elsewhere(archive: Path, input_file: Path, tmp_path: Path, *options: str) -> list[str]:
    """`allennlp predict` in a fresh process whose working directory and data folder hold nothing."""
    cwd, empty_data, output = tmp_path / "elsewhere", tmp_path / "empty_data", tmp_path / "predictions.out"
    cwd.mkdir()
    empty_data.mkdir()
    # PYTHONPATH: this checkout's green_nlp (a shared virtual environment's editable install may name another)
    env = {
        **os.environ,
        "GREEN_NLP_DATA": str(empty_data),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "predict",
            str(archive),
            str(input_file),
            "--output-file",
            str(output),
            "--silent",
            "--include-package",
            "green_nlp",
            *options,
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert not any(cwd.iterdir()) and not any(empty_data.iterdir())
    return output.read_text().splitlines()


def _copy(path: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(path, folder / path.name))


def test_dan_archive_predicts_without_any_file_its_config_names(tmp_path):
    training = tmp_path / "training"  # everything the config names lives here, and is deleted before predicting
    train, dev, extra = (
        _copy(DAN_FIXTURES / name, training) for name in ("sst2_train.tsv", "sst2_dev.tsv", "unlabeled.jsonl")
    )
    vectors = training / "vectors.txt.gz"
    words = sorted({word for example in read_examples(train) for word in example.text.split()})
    with gzip.open(vectors, "wt") as handle:
        handle.writelines(
            f"{word} {' '.join(str((i + k) % 5 / 10) for k in range(8))}\n" for i, word in enumerate(words)
        )
    names = sst2_label_names()
    run = train_dan(
        DAN_CONFIG,
        tmp_path / "run",
        train_data_path=str(train),
        validation_data_path=str(dev),
        **{
            "vocabulary.text_paths": [str(extra)],
            "model.pretrained_file": str(vectors),
            "dataset_reader.label_names": names,
            "validation_dataset_reader.label_names": names,
            "trainer.num_epochs": 2,
        },
    )
    archived = json.loads((run / "config.json").read_text())
    assert archived["vocabulary"]["text_paths"] == [str(extra)] and archived["model"]["pretrained_file"]
    archive = _copy(run / "model.tar.gz", tmp_path / "somewhere_else")
    texts = _copy(DAN_FIXTURES / "raw_text.txt", tmp_path / "input")
    expected = Predictor.from_archive(load_archive(str(archive)))
    shutil.rmtree(training)
    shutil.rmtree(run)

    lines = _predict_elsewhere(archive, texts, tmp_path)
    documents = [line for line in texts.read_text().splitlines() if line.strip()]  # predict skips blank lines
    assert len(lines) == len(documents)
    for document, line in zip(documents, lines):
        output, reference = json.loads(line), expected.predict_json({"text": document})
        assert output["label_names"] == ["negative", "positive"] and output["label"] == reference["label"]
        assert output["probs"] == reference["probs"]


def test_parser_fixture_archive_predicts_from_another_folder(tmp_path):
    archive = _copy(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz", tmp_path / "somewhere_else")
    conllu = _copy(FIXTURES / "ud" / "synthetic-dev.conllu", tmp_path / "input")
    lines = _predict_elsewhere(
        archive, conllu, tmp_path, "--use-dataset-reader", "--predictor", "green_dependency_parser"
    )
    parsed = [line.split("\t") for line in lines if line and not line.startswith("#")]
    given = [line.split("\t") for line in conllu.read_text().splitlines() if line and not line.startswith("#")]
    assert [row[:4] for row in parsed] == [row[:4] for row in given]  # words and UPOS kept, in order
    assert all(row[6].isdigit() and row[7] not in ("", "_") for row in parsed)  # a head and a relation each
