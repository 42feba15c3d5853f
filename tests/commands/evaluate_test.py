import json
import subprocess
import sys

from tests.conftest import FIXTURES, REPO_ROOT


def test_allennlp_evaluate_reports_uas_and_las(quickstart_archive, tmp_path):
    metrics_file = tmp_path / "metrics.json"
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", "evaluate", str(quickstart_archive),
         str(FIXTURES / "ud" / "synthetic-dev.conllu"), "--output-file", str(metrics_file),
         "--include-package", "green_nlp"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    metrics = json.loads(metrics_file.read_text())
    assert 0.9 < metrics["UAS"] <= 1.0 and 0.9 < metrics["LAS"] <= metrics["UAS"]
    assert metrics["upos_accuracy"] > 0.9
