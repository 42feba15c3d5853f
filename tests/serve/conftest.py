"""A real `green-nlp serve` on a free loopback port, with the shipped parser and a fixture DAN."""

import httpx
import pytest

from green_nlp.runtime import load
from green_nlp.serve.launcher import ServerProcess
from tests.dan_helpers import tiny_named_dan_run
from tests.export.exported_models import exported
from tests.export.tagger_models import tagger_folder

PARSER = "en-ewt-parser"
CLASSIFIER = "dan_named"  # served under its folder's name
TAGGER = "origin"  # the committed fixture LD-Net tagger, exported
# small limits, so the tests can pass each of them with small bodies
LIMITS = ["--max-text-chars", "3000", "--max-texts", "8", "--max-body-bytes", "20000"]


@pytest.fixture(scope="session")
def dan_folder(export_base):
    """The exported fixture DAN (SST-2 label names), as tests/runtime/classifier_test.py exports it."""
    return exported(CLASSIFIER, tiny_named_dan_run() / "model.tar.gz", export_base)


@pytest.fixture(scope="session")
def tagger_dir():
    return tagger_folder(TAGGER)


@pytest.fixture(scope="session")
def server(dan_folder, tagger_dir):
    """All three families; a 50 ms batching wait so that concurrent test requests share model calls."""
    with ServerProcess([PARSER, dan_folder, tagger_dir], ["--max-wait-ms", "50", *LIMITS]) as running:
        yield running


@pytest.fixture(scope="session")
def client(server):
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield http


@pytest.fixture(scope="session")
def parser():
    """The same model in this process: what the server's answers must equal."""
    return load(PARSER, threads=1)
