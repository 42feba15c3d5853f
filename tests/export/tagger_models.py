"""Fixture LD-Net taggers shared by tests/export and tests/runtime: each archive is built (when
needed) and exported once per test process, whichever directory's tests ask first.

- "origin", "wnut17", "conll2000": the committed fixture taggers (character BiLSTM, forward and
  backward 3-layer LMs);
- "selected": "origin" after layer selection kept one layer per LM (gates 0 elsewhere);
- "pruned": "selected" after `green-prune-ldnet` deleted the other layers;
- "nolm_cnn": no LMs, a character CNN and a 2-layer word BiLSTM; "nolm_lstm": no LMs, a
  one-directional 2-layer character LSTM. Both have untrained (seeded) weights, built from
  "origin"'s config and vocabulary: the exporter is checked on arithmetic, not on accuracy.
"""

import atexit
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES

LDNET = FIXTURES / "ldnet"
COMMITTED = {
    "origin": LDNET / "archives" / "tagger_origin.tar.gz",
    "wnut17": LDNET / "archives" / "tagger_origin_wnut17.tar.gz",
    "conll2000": LDNET / "archives" / "tagger_origin_conll2000.tar.gz",
}
DATA_FILES = {
    "origin": ["ner_conll2003_train.txt", "ner_conll2003_dev.txt", "ner_conll2003_test.txt"],
    "wnut17": ["ner_wnut17_train.txt", "ner_wnut17_dev.txt", "ner_wnut17_test.txt"],
    "conll2000": ["chunking_train.txt", "chunking_test.txt"],
}
_CACHE: dict[str, Path] = {}
_BASE: dict[str, Path] = {}


def _base() -> Path:
    if "base" not in _BASE:
        _BASE["base"] = Path(tempfile.mkdtemp(prefix="tagger_exports_"))
        atexit.register(shutil.rmtree, _BASE["base"], True)
    return _BASE["base"]


def fixture_sentences(name: str = "origin"):
    """Words of every sentence of the fixture data files the tagger `name` was trained on."""
    from green_nlp.dataset_readers.conll_tagging import read_columns

    files = DATA_FILES.get(name, DATA_FILES["origin"])
    return [[row[0] for row in rows] for file in files for rows, _ in read_columns(str(LDNET / "data" / file))]


def _save_archive(model: Any, config: Any, folder: Path) -> Path:
    import torch
    from allennlp.models.archival import CONFIG_NAME, archive_model

    folder.mkdir(parents=True, exist_ok=True)
    config.to_file(str(folder / CONFIG_NAME))
    model.vocab.save_to_files(str(folder / "vocabulary"))
    torch.save(model.state_dict(), folder / "weights.th")
    archive_model(str(folder), weights="weights.th")
    return folder / "model.tar.gz"


def _selected(base: Path) -> Path:
    """ "origin" as the layer-selection stage leaves it: gates 0 on all LM layers but layer 1 forward
    and layer 0 backward, nothing deleted yet."""
    import torch
    from allennlp.models.archival import load_archive

    archive = load_archive(str(COMMITTED["origin"]))
    with torch.no_grad():
        archive.model.lm_gates.copy_(torch.tensor([0.0, 1.0, 0.0, 1.0, 0.0, 0.0]))
    return _save_archive(archive.model, archive.config, base)


def _pruned(base: Path) -> Path:
    from green_nlp.commands.green_prune_ldnet import prune_archive

    base.mkdir(parents=True, exist_ok=True)
    pruned = base / "pruned.tar.gz"
    assert prune_archive(str(tagger_archive("selected")), str(pruned))["kept_layers"] == [[1], [0]]
    return pruned


def _without_lms(chars: dict[str, Any], char_dim: int, encoder_layers: int) -> Callable[[Path], Path]:
    """A builder of an untrained NoLM tagger on "origin"'s vocabulary with the character encoder `chars`."""

    def build(folder: Path) -> Path:
        import torch
        from allennlp.common import Params
        from allennlp.models import Model
        from allennlp.models.archival import load_archive

        origin = load_archive(str(COMMITTED["origin"]))
        config = origin.config.duplicate().as_dict(quiet=True)
        for reader in ("dataset_reader", "validation_dataset_reader"):
            config[reader]["token_indexers"].pop("ldnet_lm")
        model = config["model"]
        for key in ("language_models", "lm_projection_dim"):
            model.pop(key)
        model["text_field_embedder"]["token_embedders"]["tokens"].pop("pretrained_file")
        model["text_field_embedder"]["token_embedders"]["token_characters"]["encoder"] = chars
        model["encoder"].update(input_size=50 + char_dim, num_layers=encoder_layers)
        torch.manual_seed(7)
        tagger = Model.from_params(vocab=origin.model.vocab, params=Params(json.loads(json.dumps(model)))).eval()
        return _save_archive(tagger, Params(config), folder)

    return build


BUILT = {
    "selected": _selected,
    "pruned": _pruned,
    "nolm_cnn": _without_lms(
        {"type": "cnn", "embedding_dim": 4, "num_filters": 5, "ngram_filter_sizes": [2, 3]},
        char_dim=10,
        encoder_layers=2,
    ),
    "nolm_lstm": _without_lms(
        {"type": "lstm", "input_size": 4, "hidden_size": 3, "num_layers": 2, "bidirectional": False},
        char_dim=3,
        encoder_layers=1,
    ),
}
NAMES = list(COMMITTED) + list(BUILT)


def tagger_archive(name: str) -> Path:
    if name in COMMITTED:
        return COMMITTED[name]
    key = "archive:" + name
    if key not in _CACHE:
        _CACHE[key] = BUILT[name](_base() / f"{name}_archive")
    return _CACHE[key]


def tagger_folder(name: str) -> Path:
    """The runtime folder of `tagger_archive(name)`, exported on first request."""
    from green_nlp.export import export_archive

    if name not in _CACHE:
        _CACHE[name] = export_archive(tagger_archive(name), _base() / name)
    return _CACHE[name]
