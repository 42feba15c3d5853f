"""The real loaders and commands a bad input goes through, called as a user's command calls them."""

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from allennlp.common.checks import ConfigurationError

import green_nlp  # noqa: F401  (registers readers and models, applies the patches)
from benchmarks.common import REPO
from benchmarks.robustness.cases.case import TEACHER
from benchmarks.robustness.cases.workspace import work_folder


def read_conllu(path: Path) -> list:
    from green_nlp.dataset_readers import ConlluDependenciesReader

    return list(ConlluDependenciesReader().read(str(path)))


def read_tagging(path: Path, encoding: str) -> list:
    from allennlp.data import DatasetReader

    return list(DatasetReader.by_name("green_conll_tagging")(encoding=encoding).read(str(path)))


def read_text_examples(path: Path) -> Any:
    from green_nlp.dataset_readers.text_classification import read_examples

    return read_examples(str(path))


def read_classification(path: Path) -> list:
    from allennlp.data import DatasetReader

    return list(DatasetReader.by_name("green_text_classification")().read(str(path)))


def train(config: Path, overrides: str = "") -> Any:
    """What `allennlp train CONFIG` runs, in this process, into a throw-away folder."""
    import os

    from allennlp.commands.train import train_model_from_file

    cwd = os.getcwd()
    os.chdir(REPO)  # configs name fixture paths relative to the repository root
    try:
        with tempfile.TemporaryDirectory() as serialization_dir:
            return train_model_from_file(str(config), serialization_dir, overrides=overrides, force=True)
    finally:
        os.chdir(cwd)


def load_archive(path: Path) -> Any:
    from allennlp.models.archival import load_archive as allennlp_load_archive

    return allennlp_load_archive(str(path))


def evaluate_file(path: Path, archive_path: Path = TEACHER) -> dict[str, float]:
    """`allennlp evaluate`'s loop (its `evaluate` over the archive's validation reader) on one file."""
    from allennlp.data.data_loaders import SimpleDataLoader
    from allennlp.training.util import evaluate

    archive = load_archive(archive_path)
    loader = SimpleDataLoader(list(archive.validation_dataset_reader.read(str(path))), 32)
    loader.index_with(archive.model.vocab)
    return evaluate(archive.model, loader, cuda_device=-1)


def parse_words(words: list[str], upos: list[str]) -> dict[str, Any]:
    """One JSON line through the parser's predictor (what `allennlp predict` / `green-predict` run)."""
    from allennlp.predictors import Predictor

    predictor = Predictor.from_archive(
        load_archive(TEACHER), "green_dependency_parser", extra_args={"output_format": "json"}
    )
    return predictor.predict_batch_json([{"words": words, "upos": upos, "line": 1}])[0]


def predict_with_reader(path: Path, output_format: str, skip_malformed: bool = False) -> tuple[str, list[str]]:
    """`allennlp predict TEACHER FILE --use-dataset-reader [-o skip_malformed]`: AllenNLP's
    `_PredictManager` over the archive's validation reader; the output and the reader's reports."""
    from allennlp.commands.predict import _PredictManager
    from allennlp.models.archival import load_archive as allennlp_load_archive
    from allennlp.predictors import Predictor

    overrides = json.dumps({"validation_dataset_reader.skip_malformed": True}) if skip_malformed else ""
    archive = allennlp_load_archive(str(TEACHER), overrides=overrides)
    parser = Predictor.from_archive(archive, "green_dependency_parser", extra_args={"output_format": output_format})
    out = work_folder() / f"{path.stem}.{output_format}"
    _PredictManager(parser, str(path), str(out), 4, False, True).run()
    return out.read_text(encoding="utf-8"), list(getattr(parser._dataset_reader, "malformed", []))


def temp_folders_left(run: Callable[[], Any]) -> tuple[str, int]:
    """(the error `run` raised, temporary folders it left) with a private temp dir."""
    private = Path(tempfile.mkdtemp(prefix="robustness_tmp_"))
    saved, tempfile.tempdir = tempfile.tempdir, str(private)
    try:
        run()
        message = "no error"
    except ConfigurationError as error:
        message = str(error)
    finally:
        tempfile.tempdir = saved
    left = len(list(private.iterdir()))
    shutil.rmtree(private, ignore_errors=True)
    return message, left
