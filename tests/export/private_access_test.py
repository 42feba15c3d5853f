"""No exporter reads a private attribute of another object: that is `allennlp_internals`' one job.

The scan is of the syntax tree, not the text: `obj._name`, and `getattr`/`setattr`/`hasattr`/`delattr`
with a constant `"_name"`, on anything but `self`, in every module under `green_nlp/export`."""

import ast
from pathlib import Path

from tests.conftest import REPO_ROOT

EXPORT = REPO_ROOT / "green_nlp" / "export"

# module -> why the whole file is not scanned
SKIPPED = {
    "allennlp_internals.py": "the adapter: the one place that reads AllenNLP's private attributes",
    "deterministic_int8.py": "reads ONNX protobuf fields, not AllenNLP",
    "value_ranges.py": "reads ONNX protobuf fields, not AllenNLP",
}
# (module, attribute) -> why the access stays
ALLOWED: dict[tuple[str, str], str] = {}
ATTRIBUTE_FUNCTIONS = {"getattr", "setattr", "hasattr", "delattr"}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_reads(source: str) -> list[tuple[int, str]]:
    """(line, attribute) of each private attribute read off an object other than `self`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                found.append((node.lineno, node.attr))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ATTRIBUTE_FUNCTIONS
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _is_private(node.args[1].value)
        ):
            found.append((node.lineno, node.args[1].value))
    return sorted(found)


def _scanned() -> list[Path]:
    return sorted(path for path in EXPORT.glob("*.py") if path.name not in SKIPPED)


def test_the_scan_finds_each_kind_of_private_read():
    source = (
        "a = model.encoder._module\n"
        "b = getattr(embedder, '_token_embedders')\n"
        "setattr(x, '_y', 1)\n"
        "c = self._own\n"
        "d = type(x).__name__\n"
        "e = getattr(x, 'public', None)\n"
    )
    assert private_reads(source) == [(1, "_module"), (2, "_token_embedders"), (3, "_y")]


def test_the_exporters_read_no_private_attribute_outside_the_adapter():
    scanned = _scanned()
    assert {"parser.py", "tagger.py", "dan.py", "common.py"} <= {path.name for path in scanned}
    offending = [
        f"green_nlp/export/{path.name}:{line}: .{attribute}"
        for path in scanned
        for line, attribute in private_reads(path.read_text(encoding="utf-8"))
        if (path.name, attribute) not in ALLOWED
    ]
    assert not offending, (
        "private attributes read outside green_nlp/export/allennlp_internals.py "
        "(add a named function there, or an ALLOWED entry with its reason):\n" + "\n".join(offending)
    )


def test_every_allowed_access_is_still_there():
    used = {
        (path.name, attribute)
        for path in _scanned()
        for _, attribute in private_reads(path.read_text(encoding="utf-8"))
    }
    assert set(ALLOWED) <= used, f"stale ALLOWED entries: {sorted(set(ALLOWED) - used)}"


def test_the_skipped_files_exist():
    assert all((EXPORT / name).is_file() for name in SKIPPED)
