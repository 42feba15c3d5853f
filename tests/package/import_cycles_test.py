"""No two green_nlp modules import each other, directly or around a longer circle.

The graph is read from the source with `ast`, without importing anything. Every `import` and
`from ... import` statement counts wherever it stands: at module level, inside a function or method
(a late import still makes both modules depend on each other; moving it into a function only hides
the circle from Python's import machinery), under `if TYPE_CHECKING:` (the type checker follows it),
or in a `try:`. An edge goes to the module named: `from a.b import c` names `a.b.c` when that is a
module, else `a.b`. Two kinds of edges are not counted, because neither is a dependency between two
modules' code:

- the parent packages that Python runs before a submodule (`import a.b.c` runs `a/__init__` and
  `a/b/__init__`): counting them would join every package's `__init__` to the modules it re-exports;
- `green_nlp.register()`'s import of `green_nlp.plugin`: it is the registry's "import every
  component" entry point (what `--include-package green_nlp` does), which the modules that load an
  archive call so that any registered name in it resolves; they depend on the registry being full,
  not on the plugin's modules.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

PACKAGE = "green_nlp"
NOT_COUNTED = {("green_nlp", "green_nlp.plugin")}  # green_nlp.register(): see the module docstring

# Issue 46: the Ray teacher labelling imports green-label-teacher's private helpers and the command
# imports the Ray module. Its fix moves teacher labelling into the library; then remove this entry
# (test_known_cycles_still_exist warns once the circle is gone). Nothing else may join it.
KNOWN_CYCLES: set[frozenset[str]] = set()  # none: the last circle of issue 46 went with teacher labelling's move

Edges = dict[str, dict[str, int]]  # module -> {imported module: line of the first such import}


def modules(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> source file, for every .py file under `root / package`."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported_names(node: ast.AST, importer: str, is_package: bool) -> Iterator[tuple[str, list[str]]]:
    """(base module, [candidate submodules]) for one import statement, relative imports resolved."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, []
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = importer.split(".") if is_package else importer.split(".")[:-1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join(parts + ([node.module] if node.module else []))
        yield base, [f"{base}.{alias.name}" for alias in node.names]


def import_graph(root: Path, package: str) -> Edges:
    """Which package modules each package module imports (first line of each edge)."""
    sources = modules(root, package)
    graph: Edges = {name: {} for name in sources}
    for importer, path in sources.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            for base, submodules in _imported_names(node, importer, is_package):
                targets = [name for name in submodules if name in sources] or [base]
                for target in targets:
                    while target not in sources and "." in target:  # `import a.b.func`-like: the module holding it
                        target = target.rpartition(".")[0]
                    if target in sources and target != importer and (importer, target) not in NOT_COUNTED:
                        graph[importer].setdefault(target, node.lineno)
    return graph


def strongly_connected(graph: Edges) -> list[frozenset[str]]:
    """The groups of two or more modules that reach each other (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(frozenset(group))
    return groups


def shortest_cycle(graph: Edges, group: frozenset[str]) -> list[str]:
    """One shortest circle through the group's first module (by name), as [a, b, ..., a]."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    return paths[node] + [start]
                if child in group and child not in paths:
                    paths[child] = paths[node] + [child]
                    following.append(child)
        frontier = following
    raise AssertionError(f"{sorted(group)} is not a cycle")


def describe(graph: Edges, sources: dict[str, Path], root: Path, group: frozenset[str]) -> str:
    cycle = shortest_cycle(graph, group)
    steps = [
        f"{a} -> {b} ({sources[a].relative_to(root)}:{graph[a][b]})" for a, b in zip(cycle, cycle[1:], strict=False)
    ]
    more = (
        f" (the circle's group has {len(group)} modules: {', '.join(sorted(group))})"
        if len(group) > len(cycle) - 1
        else ""
    )
    return "import circle: " + "; ".join(steps) + more


@pytest.fixture(scope="module")
def green_graph() -> Edges:
    return import_graph(REPO_ROOT, PACKAGE)


def test_green_nlp_has_no_import_cycle(green_graph):
    sources = modules(REPO_ROOT, PACKAGE)
    new = [group for group in strongly_connected(green_graph) if group not in KNOWN_CYCLES]
    assert not new, "\n".join(describe(green_graph, sources, REPO_ROOT, group) for group in new)


# ------------------------------------------------------------------- the check itself, on made-up packages
def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_function_level_circle_is_found_and_named(tmp_path):
    root = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "import os\nfrom pkg.b import helper\n",
            "pkg/b.py": "def helper():\n    from pkg import a\n    return a\n",
            "pkg/c.py": "from pkg import b\n",  # reaches the circle without being in it
        },
    )
    graph = import_graph(root, "pkg")
    assert graph["pkg.a"] == {"pkg.b": 2} and graph["pkg.b"] == {"pkg.a": 2}
    groups = strongly_connected(graph)
    assert groups == [frozenset({"pkg.a", "pkg.b"})]
    message = describe(graph, modules(root, "pkg"), root, groups[0])
    assert message == "import circle: pkg.a -> pkg.b (pkg/a.py:2); pkg.b -> pkg.a (pkg/b.py:2)"


def test_relative_type_checking_and_longer_circles_count(tmp_path):
    root = _package(
        tmp_path,
        {
            "pkg/__init__.py": "from . import sub\n",  # parent packages run first: not counted the other way
            "pkg/sub/__init__.py": "",
            "pkg/sub/x.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .y import Y\n",
            "pkg/sub/y.py": "from ..z import z\n",
            "pkg/z.py": "import pkg.sub.x\nz = 1\n",
        },
    )
    graph = import_graph(root, "pkg")
    assert graph["pkg"] == {"pkg.sub": 1} and graph["pkg.sub.y"] == {"pkg.z": 1}
    (group,) = strongly_connected(graph)
    assert group == {"pkg.sub.x", "pkg.sub.y", "pkg.z"}
    assert shortest_cycle(graph, group) == ["pkg.sub.x", "pkg.sub.y", "pkg.z", "pkg.sub.x"]


def test_a_package_without_circles_passes(tmp_path):
    root = _package(tmp_path, {"pkg/__init__.py": "from pkg import a\n", "pkg/a.py": "import pkg.b\n", "pkg/b.py": ""})
    assert strongly_connected(import_graph(root, "pkg")) == []
