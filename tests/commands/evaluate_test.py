import json
import subprocess
import sys

from tests.conftest import FIXTURES, REPO_ROOT


def test_allennlp_evaluate_reports_uas_and_las(quickstart_archive, tmp_path):
    metrics_file = tmp_path / "metrics.json"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "evaluate",
            str(quickstart_archive),
            str(FIXTURES / "ud" / "synthetic-dev.conllu"),
            "--output-file",
            str(metrics_file),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    metrics = json.loads(metrics_file.read_text())
    assert 0.9 < metrics["UAS"] <= 1.0 and 0.9 < metrics["LAS"] <= metrics["UAS"]
    assert metrics["upos_accuracy"] > 0.9


def _evaluate(archive, data_file, metrics_file):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "evaluate",
            str(archive),
            str(data_file),
            "--output-file",
            str(metrics_file),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(metrics_file.read_text()), result.stderr


def test_relations_the_model_never_saw_count_as_wrong_labels(quickstart_archive, tmp_path):
    """A treebank version can add relations (e.g. `nmod:desc`): scored as errors, with a warning."""
    original = FIXTURES / "ud" / "synthetic-dev.conllu"
    renamed = tmp_path / "unseen-relations.conllu"
    lines = []
    for line in original.read_text(encoding="utf-8").splitlines():
        columns = line.split("\t")
        if len(columns) == 10 and columns[0].isdigit():
            columns[7] = "nmod:never_seen"
        lines.append("\t".join(columns))
    renamed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before, _ = _evaluate(quickstart_archive, original, tmp_path / "before.json")
    after, log = _evaluate(quickstart_archive, renamed, tmp_path / "after.json")
    assert after["UAS"] == before["UAS"] and before["LAS"] > 0.9
    assert after["LAS"] == 0.0
    assert "nmod:never_seen" in log and "wrong label" in log
