"""`green-nlp parse|tag` import spaCy without its command-line package, and spaCy still works in
full: same tokens, `spacy.info`, `spacy.cli.<command>` and `import spacy.cli.<module>`. Each check
runs in a fresh interpreter, since this one has imported spaCy already."""

import json
import os
import subprocess
import sys

from tests.conftest import FIXTURES, REPO_ROOT

TEXT = "Mr. O'Neil didn't pay $3.50 for e-mail, did he?"

# the modules only spaCy's command-line package brings in
CLI_ONLY = ("typer", "weasel", "spacy.cli.download", "spacy.cli._util")

CHILD = """
import json, sys
from green_nlp.runtime.spacy_cli_deferral import defer_spacy_cli
deferred = defer_spacy_cli() if sys.argv[1] == "defer" else False
import spacy
nlp = spacy.blank("en")
report = {"deferred": deferred, "words": [t.text for t in nlp(sys.argv[2])], "again": defer_spacy_cli()}
report["cli_only"] = sorted(m for m in sys.modules if m in CLI_ONLY)
if sys.argv[3] == "use-cli":
    import spacy.cli.download
    report["download"] = spacy.cli.download.get_latest_version.__module__
    report["app"] = type(spacy.cli.app).__name__
    report["info"] = spacy.info(markdown=False, silent=True)["spacy_version"]
    report["cli_info"] = spacy.cli.info.__module__
print(json.dumps(report))
""".replace("CLI_ONLY", repr(CLI_ONLY))


def _child(mode: str, use: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode, TEXT, use], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_deferred_spacy_tokenizes_as_plain_spacy_without_its_command_line():
    deferred, plain = _child("defer", "tokenize"), _child("plain", "tokenize")
    assert deferred["deferred"] and not deferred["again"]
    assert deferred["words"] == plain["words"]
    assert deferred["cli_only"] == []
    assert plain["cli_only"] != []  # the check can fail: plain spaCy imports its command line


def test_spacy_cli_still_works_in_full_when_used():
    import spacy

    report = _child("defer", "use-cli")
    assert report["download"] == "spacy.cli.download"
    assert report["app"] == "Typer"
    assert report["info"] == spacy.__version__
    assert report["cli_info"] == "spacy.cli.info"  # the real function, not the stand-in


def test_defer_does_nothing_once_spacy_is_imported():
    import spacy  # noqa: F401

    from green_nlp.runtime.spacy_cli_deferral import _DeferringFinder, defer_spacy_cli

    assert defer_spacy_cli() is False
    assert not any(isinstance(finder, _DeferringFinder) for finder in sys.meta_path)


# `green-nlp` as installed (`main()`, no argv: spaCy's command line deferred) or as a program calls
# it (`main(argv)`: nothing deferred), reporting the command-line modules it ended with
CLI_CHILD = """
import json, os, sys
from green_nlp.cli import main
args = sys.argv[2:]
try:
    if sys.argv[1] == "installed":
        sys.argv = ["green-nlp", *args]
        main()
    else:
        main(args)
finally:
    with open(os.environ["GREEN_NLP_TEST_MODULES"], "w") as out:
        json.dump(sorted(m for m in sys.modules if m in CLI_ONLY), out)
""".replace("CLI_ONLY", repr(CLI_ONLY))


def _parse(tmp_path, how: str) -> tuple[list[str], str]:
    modules, output = tmp_path / f"{how}.json", tmp_path / f"{how}.conllu"
    env = {**os.environ, "GREEN_NLP_TEST_MODULES": str(modules), "OMP_NUM_THREADS": "1"}
    command = ["parse", "en-ewt-parser", str(FIXTURES / "raw_text.txt"), "-o", str(output)]
    done = subprocess.run(
        [sys.executable, "-c", CLI_CHILD, how, *command],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(modules.read_text()), output.read_text(encoding="utf-8")


def test_green_nlp_parse_skips_spacy_command_line_and_writes_the_same_trees(tmp_path):
    installed_modules, installed_output = _parse(tmp_path, "installed")
    called_modules, called_output = _parse(tmp_path, "called")
    assert installed_modules == []
    assert called_modules != []
    assert installed_output == called_output and installed_output.count("\n1\t") == 3
