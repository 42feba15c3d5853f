"""Import a script from benchmarks/ (not a package) by name, once per test session."""
import importlib.util
import sys
from types import ModuleType

from tests.conftest import REPO_ROOT


def load_benchmark(name: str) -> ModuleType:
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
