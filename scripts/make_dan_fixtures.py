"""Rebuild fixtures/dan/sst2_tiny.teacher.jsonl (run from the repo root).

A tiny n-gram DAN trained on the fixture sentences stands in for the transformer teacher (any
classifier archive can label a corpus); the real `green-label-teacher` code writes its logits for
the fixture train + unlabeled text. Fixed seeds: the same command gives the same file.
"""

import json
import tempfile
from pathlib import Path

from allennlp.commands.train import train_model_from_file

import green_nlp  # noqa: F401  (registers the components)
from green_nlp.commands.green_label_teacher import label_corpus

CACHE = Path("fixtures/dan/sst2_tiny.teacher.jsonl")

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as run:
        train_model_from_file(
            "fixtures/dan/dan_experiment.jsonnet",
            run,
            force=True,
            overrides=json.dumps({"trainer.num_epochs": 8, "trainer.patience": 8}),
        )
        CACHE.unlink(missing_ok=True)
        records = label_corpus(
            str(Path(run) / "model.tar.gz"), ["fixtures/dan/sst2_train.tsv", "fixtures/dan/unlabeled.jsonl"], str(CACHE)
        )
    print(f"wrote {CACHE} ({records} records)")
