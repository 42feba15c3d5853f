"""`import green_nlp` is light; AllenNLP still finds every green component when it needs it."""

import json
import subprocess
import sys

from tests.conftest import REPO_ROOT

HEAVY = ("torch", "allennlp", "allennlp_models", "torchvision", "transformers")


def _fresh(code: str, cwd=None) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=cwd or REPO_ROOT
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.strip().splitlines()[-1]


def test_import_green_nlp_imports_nothing_heavy(tmp_path):
    loaded = json.loads(
        _fresh(
            "import sys, json, green_nlp, green_nlp.line_stream, green_nlp.cli, green_nlp.runtime.tagger, "
            "green_nlp.runtime.tagger_agreement; "
            f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))",
            cwd=tmp_path,
        )
    )
    assert loaded == []


def test_the_folder_command_the_runtime_names_imports_nothing_heavy(tmp_path):
    """The runtime tells a user with an outdated DAN folder to run `python -m
    green_nlp.export.ngram_index FOLDER`: it must run where only the runtime is installed, while
    `green_nlp.export`'s archive exporter (torch, allennlp) is still there on first use."""
    loaded = json.loads(
        _fresh(
            "import sys, json, green_nlp.export, green_nlp.export.ngram_index; "
            f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))",
            cwd=tmp_path,
        )
    )
    assert loaded == []
    found = _fresh("from green_nlp.export import export_archive; print(export_archive.__module__)", cwd=tmp_path)
    assert found == "green_nlp.export.common"


def test_components_register_when_allennlp_is_imported_afterwards(tmp_path):
    found = _fresh(
        "import green_nlp\n"
        "from allennlp.models import Model\n"
        "from allennlp.data import DatasetReader\n"
        "print(Model.by_name('green_biaffine_parser').__name__,"
        " DatasetReader.by_name('green_conllu_dependencies').__name__)",
        cwd=tmp_path,
    )
    assert found == "BiaffineDependencyParser ConlluDependenciesReader"


def test_components_register_when_allennlp_came_first(tmp_path):
    found = _fresh(
        "from allennlp.models import Model\n"
        "import green_nlp\n"
        "print('green_nlp.plugin' in __import__('sys').modules, Model.by_name('green_ngram_dan').__name__)",
        cwd=tmp_path,
    )
    assert found == "True NgramDan"


def test_importing_a_green_module_directly_registers_the_rest(tmp_path):
    found = _fresh(
        "from green_nlp.models.biaffine_parser import BiaffineDependencyParser\n"
        "from allennlp.data import DatasetReader\n"
        "print(DatasetReader.by_name('green_conll_tagging').__name__)",
        cwd=tmp_path,
    )
    assert found == "ConllTaggingReader"


def test_register_is_idempotent():
    import green_nlp

    green_nlp.register()
    green_nlp.register()
    from allennlp.models import Model

    assert Model.by_name("green_biaffine_parser").__name__ == "BiaffineDependencyParser"
