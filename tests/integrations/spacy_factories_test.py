"""spaCy finds green_nlp's factories through entry points, and pays nothing for them until one is used.

spaCy imports every `spacy_factories` entry point in `Language.__init__`, so each test here runs a
fresh interpreter in which spaCy sees the entry points that setup.py declares (what an install of
this checkout writes into its metadata), whatever an older install of green_nlp left behind.
"""

import ast
import json
import subprocess
import sys

import spacy

from green_nlp.integrations import spacy_components, spacy_factories
from tests.conftest import FIXTURES, REPO_ROOT

FACTORIES = ("green_nlp_parser", "green_nlp_ner", "green_nlp_classifier")
HEAVY = ("allennlp", "allennlp_models", "torchvision", "transformers")  # torch: see the module check below
# `import green_nlp` exports the path settings the configs read: os and pathlib only
LIGHT_GREEN = {"green_nlp", "green_nlp.integrations", "green_nlp.integrations.spacy_factories", "green_nlp.settings"}

# Makes spaCy (catalogue) see the declared entry points in place of any installed green_nlp ones.
_USE_DECLARED_ENTRY_POINTS = """
import json, sys
from importlib.metadata import EntryPoint, EntryPoints
import catalogue
declared = json.loads(sys.argv[1])
available = catalogue.AVAILABLE_ENTRY_POINTS
flat = [ep for group in available.groups for ep in available.select(group=group)]
kept = [ep for ep in flat if not (ep.group == "spacy_factories" and ep.name in declared)]
catalogue.AVAILABLE_ENTRY_POINTS = EntryPoints(
    kept + [EntryPoint(name, value, "spacy_factories") for name, value in declared.items()])
"""


def declared_entry_points() -> dict[str, str]:
    tree = ast.parse((REPO_ROOT / "setup.py").read_text())
    entry_points = next(
        ast.literal_eval(k.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        for k in node.keywords
        if k.arg == "entry_points"
    )
    return dict(item.split(" = ") for item in entry_points["spacy_factories"])


def _fresh(script: str) -> dict:
    """Run `script` in a new interpreter from the repo root (this checkout's green_nlp); its last line is JSON."""
    result = subprocess.run(
        [sys.executable, "-c", _USE_DECLARED_ENTRY_POINTS + script, json.dumps(declared_entry_points())],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_entry_points_name_the_light_module():
    declared = declared_entry_points()
    assert declared == {
        name: f"green_nlp.integrations.spacy_factories:make_{name.rsplit('_', 1)[1]}" for name in FACTORIES
    }


def test_blank_pipeline_imports_neither_allennlp_nor_the_components():
    report = _fresh("""
import time
start = time.perf_counter()
import spacy
imported = time.perf_counter()
after_import = set(sys.modules)
nlp = spacy.blank("en")
blank = time.perf_counter()
print(json.dumps({"added": sorted(set(sys.modules) - after_import), "torch_after_import": "torch" in after_import,
                  "found": [name for name in ("green_nlp_parser", "green_nlp_ner", "green_nlp_classifier")
                            if nlp.has_factory(name)],
                  "import_s": imported - start, "blank_s": blank - imported}))
""")
    added = report["added"]
    assert report["found"] == list(FACTORIES)  # the entry points were followed...
    assert "green_nlp.integrations.spacy_factories" in added
    heavy = [name for name in added if name.split(".")[0] in HEAVY]
    assert not heavy, f"spacy.blank('en') imported {heavy[:10]}"
    green = [
        name
        for name in added
        if name.startswith("green_nlp") and name not in LIGHT_GREEN and not name.split(".")[-1].startswith("_")
    ]
    assert not green, f"spacy.blank('en') imported green_nlp modules beyond the factories: {green}"
    if not report["torch_after_import"]:  # `import spacy` alone imports torch where thinc finds it installed
        assert "torch" not in added


def test_adding_a_component_loads_and_registers_what_the_archive_needs():
    report = _fresh(f"""
import spacy
from spacy.tokens import Doc
nlp = spacy.blank("en")
nlp.add_pipe("green_nlp_parser", config={{"archive": {str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz")!r}}})
doc = nlp(Doc(nlp.vocab, words=["the", "teacher", "trains", "a", "model", "."],
              pos=["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"]))
print(json.dumps({{"roots": sum(t.head.i == t.i for t in doc), "deps": [t.dep_ for t in doc],
                  "components": "green_nlp.integrations.spacy_components" in sys.modules}}))
""")
    assert report["components"] and report["roots"] == 1 and all(report["deps"])


def test_the_components_module_registers_no_factory_of_its_own():
    for name in FACTORIES:
        factory = getattr(spacy_factories, f"make_{name.rsplit('_', 1)[1]}")
        assert spacy.registry.factories.get(name) is factory
        assert not hasattr(spacy_components, factory.__name__)  # declared in one module, which imports the other
