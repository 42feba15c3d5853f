"""Rebuild the tiny LD-Net archives under fixtures/ldnet/archives/ (run from the repo root).

The forward and backward LMs are trained on fixtures/ldnet/lm with the `tiny` preset, then the
LD-Net taggers (`STAGE=origin` of training_configs/ldnet/tagger.jsonnet) on the fixture CoNLL-03,
WNUT-17 and CoNLL-2000 files with those LMs (the archives its later stages start from on the
fixtures). `python scripts/make_ldnet_fixture_archives.py NAME...` rebuilds only the named archives.
Seeds are fixed, so the same command gives the same weights.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ["LDNET_DATA"] = "fixtures/ldnet/data"
os.environ["LDNET_FIXTURES"] = "fixtures/ldnet"  # relative, so the archives hold no path of the machine that built them
os.environ["LDNET_LM_PRESET"] = "tiny"

from allennlp.commands.train import train_model_from_file  # noqa: E402

import green_nlp  # noqa: E402,F401  (registers the components)

TAGGER = "training_configs/ldnet/tagger.jsonnet"
ARCHIVES = {  # in order: the tagger reads the LM archives; (config, its TASK) where it is the tagger
    "lm_forward.tar.gz": ("training_configs/ldnet/lm_forward.jsonnet", None),
    "lm_backward.tar.gz": ("training_configs/ldnet/lm_backward.jsonnet", None),
    "tagger_origin.tar.gz": (TAGGER, "ner"),
    "tagger_origin_wnut17.tar.gz": (TAGGER, "wnut17"),
    "tagger_origin_conll2000.tar.gz": (TAGGER, "chunking"),
}

if __name__ == "__main__":
    out = Path("fixtures/ldnet/archives")
    out.mkdir(parents=True, exist_ok=True)
    wanted = sys.argv[1:] or list(ARCHIVES)  # e.g. only the taggers: tagger_origin.tar.gz ...
    for name, (config, task) in ARCHIVES.items():
        if name not in wanted:
            continue
        if task is not None:  # ldnet/tagger.jsonnet reads its cell from the environment, as `allennlp train` does
            os.environ.update(TASK=task, STAGE="origin")
        with tempfile.TemporaryDirectory() as run:
            train_model_from_file(config, run, force=True)
            shutil.copy(Path(run) / "model.tar.gz", out / name)
        print(f"wrote {out / name} ({(out / name).stat().st_size} bytes)")
