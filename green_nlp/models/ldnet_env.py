"""Defaults that let one LD-Net config run on real data or on the committed fixtures.

Jsonnet cannot test whether a file exists, so this decides on import (like `GREEN_NLP_DATA` in
`green_nlp.data_paths`) and exports two environment variables the configs read with
`std.extVar`; set either yourself to override:

- `LDNET_DATA`: the data root. `GREEN_NLP_DATA` when it holds CoNLL-03, else `fixtures/ldnet/data`
  (tiny hand-written files; the configs switch to their names).
- `LDNET_LM_PRESET`: `cpu` when both trained LM archives exist under `runs/ldnet/lm_forward` and
  `runs/ldnet/lm_backward` (relative to the working directory, as the config paths are), else
  `tiny` (the committed archives in `fixtures/ldnet/archives`). The preset fixes both the archive
  paths and the LM sizes, which must match the archives.
"""
import logging
import os
from pathlib import Path

from green_nlp.data_paths import data_dir

logger = logging.getLogger(__name__)

FIXTURE_DATA = Path(__file__).resolve().parents[2] / "fixtures" / "ldnet" / "data"
TRAINED_LMS = (Path("runs/ldnet/lm_forward/model.tar.gz"), Path("runs/ldnet/lm_backward/model.tar.gz"))


def export_defaults() -> None:
    if "LDNET_DATA" not in os.environ:
        real = data_dir()
        has_real = (real / "ner" / "conll2003" / "eng.train").exists()
        os.environ["LDNET_DATA"] = str(real if has_real else FIXTURE_DATA)
    if "LDNET_LM_PRESET" not in os.environ:
        os.environ["LDNET_LM_PRESET"] = "cpu" if all(path.exists() for path in TRAINED_LMS) else "tiny"
    logger.debug("LD-Net configs: LDNET_DATA=%s LDNET_LM_PRESET=%s", os.environ["LDNET_DATA"],
                 os.environ["LDNET_LM_PRESET"])
