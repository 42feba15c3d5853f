"""What the shipped models' recipes share (scripts/pretrained_common.py): the CPU-time ledger behind the
cards' training cost, and the release a rebuild replaces, read back from git."""

import json
import subprocess
import sys

from tests.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "scripts"))
from pretrained_common import add_cpu_seconds, wait_cpu_seconds  # noqa: E402

from benchmarks.common import committed_folder  # noqa: E402


def child(code: str) -> "subprocess.Popen[bytes]":
    return subprocess.Popen([sys.executable, "-c", code])


def test_a_busy_child_is_charged_its_cpu_time_and_a_sleeping_one_almost_none():
    spin = "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass"
    busy = wait_cpu_seconds(child(spin))
    idle = wait_cpu_seconds(child("import time; time.sleep(0.4)"))
    assert busy >= 0.4
    assert idle < busy - 0.2  # wall time would have charged both about the same


def test_the_exit_status_is_kept():
    process = child("raise SystemExit(3)")
    wait_cpu_seconds(process)
    assert process.returncode == 3


def test_a_resumed_step_adds_up_in_the_ledger(tmp_path):
    ledger = tmp_path / "cpu_seconds.json"
    add_cpu_seconds(ledger, "teacher", 10.0)
    add_cpu_seconds(ledger, "dan", 2.5)
    add_cpu_seconds(ledger, "teacher", 5.0)
    assert json.loads(ledger.read_text()) == {"teacher": 15.0, "dan": 2.5}


def test_a_committed_folder_is_written_as_git_holds_it(tmp_path):
    folder = committed_folder("en-sst2-sentiment", "HEAD", tmp_path / "release")
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", "HEAD", "pretrained/en-sst2-sentiment/"],
        cwd=REPO_ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert sorted(path.name for path in folder.iterdir()) == sorted(name.rsplit("/", 1)[1] for name in listed)
    assert (folder / "green_model.json").read_bytes().startswith(b"{")


def test_a_step_made_again_from_nothing_replaces_what_it_spent_before(tmp_path):
    ledger = tmp_path / "cpu_seconds.json"
    add_cpu_seconds(ledger, "dan", 200.0)
    add_cpu_seconds(ledger, "dan", 50.0, resumed=False)
    assert json.loads(ledger.read_text()) == {"dan": 50.0}
