"""Rebuild the tiny LD-Net archives under fixtures/ldnet/archives/ (run from the repo root).

The forward and backward LMs are trained on fixtures/ldnet/lm with the `tiny` preset, then the
LD-Net NER tagger on the fixture CoNLL-03 files with those LMs (the archive the layer-selection
config starts from in tests). Seeds are fixed, so the same command gives the same weights.
"""
import os
import shutil
import tempfile
from pathlib import Path

os.environ["LDNET_DATA"] = "fixtures/ldnet/data"
os.environ["LDNET_LM_PRESET"] = "tiny"

from allennlp.commands.train import train_model_from_file  # noqa: E402

import green_nlp  # noqa: E402,F401  (registers the components)

ARCHIVES = {  # in order: the tagger reads the LM archives
    "lm_forward.tar.gz": "training_configs/ldnet/lm_forward.jsonnet",
    "lm_backward.tar.gz": "training_configs/ldnet/lm_backward.jsonnet",
    "tagger_origin.tar.gz": "training_configs/ldnet_ner.jsonnet",
}

if __name__ == "__main__":
    out = Path("fixtures/ldnet/archives")
    out.mkdir(parents=True, exist_ok=True)
    for name, config in ARCHIVES.items():
        with tempfile.TemporaryDirectory() as run:
            train_model_from_file(config, run, force=True)
            shutil.copy(Path(run) / "model.tar.gz", out / name)
        print(f"wrote {out / name} ({(out / name).stat().st_size} bytes)")
