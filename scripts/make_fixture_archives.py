"""Rebuild the tiny model archives under fixtures/archives/ (run from the repo root).

They are trained from the fixture configs (fixed seeds), so the same command gives the same
weights; tests load them as teachers.
"""

import shutil
import tempfile
from pathlib import Path

from allennlp.commands.train import train_model_from_file

import green_nlp  # noqa: F401  (registers the components)

ARCHIVES = {"tiny_parser_teacher.tar.gz": "fixtures/parser/teacher_experiment.jsonnet"}

if __name__ == "__main__":
    out = Path("fixtures/archives")
    out.mkdir(parents=True, exist_ok=True)
    for name, config in ARCHIVES.items():
        with tempfile.TemporaryDirectory() as run:
            train_model_from_file(config, run, force=True)
            shutil.copy(Path(run) / "model.tar.gz", out / name)
        print(f"wrote {out / name} ({(out / name).stat().st_size} bytes)")
