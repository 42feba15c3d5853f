"""`green-nlp parse|classify` in the training environment import neither torch nor allennlp (issue 44:
spaCy's thinc imported torch, several seconds and hundreds of MB per run for an ONNX model)."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES, REPO_ROOT

# runs the console script's `main()` (no argv: as installed) and writes the heavy modules it ended with
CHILD = """
import json, os, sys
from green_nlp.cli import main
sys.argv = ["green-nlp", *sys.argv[1:]]
try:
    main()
finally:
    heavy = sorted(name for name in sys.modules if name.partition(".")[0] in ("torch", "allennlp", "thinc"))
    with open(os.environ["GREEN_NLP_TEST_MODULES"], "w") as out:
        json.dump(heavy, out)
"""


def _run(tmp_path, *args):
    modules = tmp_path / "modules.json"
    env = {**os.environ, "GREEN_NLP_TEST_MODULES": str(modules), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    return done, json.loads(modules.read_text())


def test_torch_is_installed_here_so_the_check_means_something():
    import torch  # noqa: F401  (the training environment: thinc would import it)


@pytest.mark.parametrize(
    "command, model, uses_spacy", [("parse", "en-ewt-parser", True), ("classify", "en-sst2-sentiment", False)]
)
def test_runtime_commands_import_no_torch(tmp_path, command, model, uses_spacy):
    output = tmp_path / "out.txt"
    done, modules = _run(tmp_path, command, model, str(FIXTURES / "raw_text.txt"), "-o", str(output))
    assert done.returncode == 0, done.stderr
    assert "3 lines predicted" in done.stderr
    assert len(output.read_text().strip()) > 0
    assert ("thinc" in modules) == uses_spacy  # the parser's sentence splitter is spaCy's ...
    assert not [name for name in modules if name.partition(".")[0] in ("torch", "allennlp")]  # ... torch was not


def test_a_program_calling_main_with_arguments_keeps_its_imports():
    """Only the command itself refuses torch: `main(argv)` inside a program installs no import hook."""
    from green_nlp.cli import main
    from green_nlp.serve import import_guard

    before = list(sys.meta_path)
    with pytest.raises(SystemExit):
        main(["parse", "--help"])
    assert sys.meta_path == before and not any(isinstance(f, import_guard._RefuseHeavyImports) for f in sys.meta_path)
