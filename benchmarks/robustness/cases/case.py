"""What a bad-input case is, the entry points results are counted by, and the fixture models
the cases run through."""

import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from allennlp.common.checks import ConfigurationError

from benchmarks.common import REPO

TEACHER = REPO / "fixtures" / "archives" / "tiny_parser_teacher.tar.gz"
TAGGER = REPO / "fixtures" / "ldnet" / "archives" / "tagger_origin.tar.gz"
SHIPPED_PARSER = "en-ewt-parser"  # the runtime's shipped model (pretrained/)
NOT_CASES = {"README.md"}
Outcome = tuple[bool, str]  # (as documented?, what happened); a third item adds fields to the record
# entry points, as results are counted
READERS = "dataset readers"  # what allennlp train / evaluate / predict --use-dataset-reader read files with
TRAIN, ARCHIVES, PREDICT, EVALUATE = "allennlp train", "load_archive", "allennlp predict", "allennlp evaluate"
GREEN_PREDICT, SPACY, RUNTIME = "green-predict", "spaCy components", "runtime CLI"
API, FOLDERS, SERVER, RAY = "Python API", "model folders", "green-nlp serve", "--ray"
Wanted = Union[str, tuple[str, ...]]  # a fragment the message must hold, or alternatives (any one will do)


@dataclass
class Case:
    """One bad input. `run` returns a value for `check`, or raises; `error` lists what a proper
    error message must contain (`{file}` is the file's path), or is None where no error is due."""

    name: str
    through: str
    expected: str
    run: Callable[[], Any]
    error: Optional[list[Wanted]] = None
    error_types: tuple[type, ...] = (ValueError, ConfigurationError, FileNotFoundError, pickle.UnpicklingError)
    check: Optional[Callable[[Any], Any]] = None
    file: Optional[Path] = None
    entry: str = READERS
