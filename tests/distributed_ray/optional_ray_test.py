"""Ray is an optional extra: without it every green_nlp module still imports (`--include-package
green_nlp` imports them all), and `--ray` says which extra to install. Ray is hidden from a process
with `sys.modules["ray"] = None`, which makes `import ray` fail as if it were not installed."""

import subprocess
import sys

import pytest

from green_nlp.distributed_ray.options import LOCAL
from green_nlp.distributed_ray.pool import connected
from tests.conftest import FIXTURES, REPO_ROOT
from tests.distributed_ray.conftest import needs_ray

HIDE_RAY = "import sys\nsys.modules['ray'] = None\n"
INSTALL = "pip install 'green_nlp[ray]'"


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", HIDE_RAY + code], capture_output=True, text=True, timeout=600, cwd=REPO_ROOT
    )


def test_every_green_nlp_module_imports_without_ray():
    result = _python(
        "from allennlp.common.util import import_module_and_submodules\n"
        "import_module_and_submodules('green_nlp')\n"
        "print(sorted(name for name in sys.modules if name.startswith('green_nlp.distributed_ray.')))\n"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    for module in ("lines", "pool", "teacher"):
        assert f"green_nlp.distributed_ray.{module}" in result.stdout


def test_green_predict_with_include_package_and_ray_says_which_extra_to_install(tmp_path):
    """The documented command line, `--include-package green_nlp` included: it gets as far as the
    `--ray` check, which names the extra, before any model loads."""
    lines = tmp_path / "input.txt"
    lines.write_text("The cat sat .\n", encoding="utf-8")
    argv = ["allennlp", "green-predict", str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"), str(lines)]
    argv += ["--no-progress", "--include-package", "green_nlp", "--ray"]
    result = _python(f"sys.argv = {argv!r}\nfrom allennlp.__main__ import run\nrun()\n")
    assert result.returncode != 0
    assert "ConfigurationError" in result.stderr and INSTALL in result.stderr, result.stderr[-3000:]
    assert "--ray needs the ray extra" in result.stderr


def test_runtime_cli_with_ray_says_which_extra_to_install(monkeypatch, capsys, tmp_path):
    from green_nlp.cli import run_runtime

    monkeypatch.setitem(sys.modules, "ray", None)
    lines = tmp_path / "input.txt"
    lines.write_text("The cat sat.\n", encoding="utf-8")
    assert run_runtime(["parse", "en-ewt-parser", str(lines), "--ray"]) == 2
    assert f"green-nlp parse: --ray needs the ray extra, which is not installed: {INSTALL}" in capsys.readouterr().err


def test_the_library_entry_point_names_the_extra_too(monkeypatch):
    """A program that calls `stream_lines` / `RayTeacher` itself passes through `connected`."""
    monkeypatch.setitem(sys.modules, "ray", None)
    with (
        pytest.raises(ModuleNotFoundError, match=r"--ray needs the ray extra.*pip install 'green_nlp\[ray\]'"),
        connected(LOCAL),
    ):
        pass


@needs_ray
def test_actor_classes_become_remote_with_their_concurrency_groups():
    """Made remote on first use, `LineWorker` keeps reading beside predicting (its own group)."""
    from green_nlp.distributed_ray.lines import LineWorker
    from green_nlp.distributed_ray.pool import remote_class
    from green_nlp.distributed_ray.teacher import TeacherWorker

    line_worker = remote_class(LineWorker)
    assert remote_class(LineWorker) is line_worker  # made once
    metadata = line_worker.__ray_metadata__
    assert metadata.concurrency_groups == {"read": 1, "model": 1}
    assert metadata.method_meta.concurrency_group_for_methods == {"read": "read", "predict": "model"}
    assert callable(remote_class(TeacherWorker).options)
