"""ONNX export of the n-gram DAN (`green_ngram_dan`) for the torch-free runtime (`green_nlp.runtime.classifier`).

The graph takes a padded matrix of n-gram ids (0 = padding) and returns logits and probabilities:
mean of the ids' embedding rows -> Linear -> activation -> Linear -> softmax, the model's own eval
arithmetic. n-gram extraction stays outside the graph (string work ONNX cannot express); the
runtime re-implements the reader's CountVectorizer analyzer from the settings written here, and
reads the n-gram vocabulary from `ngrams.txt`, one n-gram per line in id order (plain text, so
the folder holds no pickle).
"""

import logging
import warnings
from pathlib import Path
from typing import Any

import torch
from allennlp.common.checks import ConfigurationError
from torch import nn

from green_nlp.data.ngram_vocabulary import make_analyzer
from green_nlp.export.ngram_index import write_index
from green_nlp.models.ngram_dan import NgramDan
from green_nlp.names import NGRAM_DAN, NGRAM_TEXT_READER, current_name
from green_nlp.runtime.folder_schema import WORD_ANALYZER

logger = logging.getLogger(__name__)

OPSET = 17
MODEL_TYPE = NGRAM_DAN
NGRAM_FILE = "ngrams.txt"
FIRST_NGRAM_ID = 2  # 0 is padding, 1 AllenNLP's (unused) OOV entry
INPUT_NAME = "ngram_ids"
OUTPUT_NAMES = ["logits", "probs"]
# What int8 should quantize for this family: the n-gram table (Gather) is nearly all of the model,
# so quantizing it makes the file 4x smaller at the same agreement with fp32
# (benchmarks/results/dan_runtime_speed.md). For `green_nlp.export.common.quantize_int8` to use.
INT8_OP_TYPES = ["MatMul", "Gemm", "Gather"]


class DanGraph(nn.Module):
    """Export-only view of a trained DAN. `EmbeddingBag(mode="mean", padding_idx=0)` becomes an
    embedding lookup, a sum and a division by the count of non-padding ids (at least 1, so a text
    without known n-grams pools to zeros as EmbeddingBag does): the TorchScript exporter turns
    EmbeddingBag into a slow ONNX Loop. Row 0 of the table is zero in the export, so padding adds
    nothing to the sum whatever the trained row holds."""

    def __init__(self, model: NgramDan) -> None:
        super().__init__()
        weight = model.ngram_embedding.weight.detach()
        if bool(weight[0].any()):
            weight = weight.clone()
            weight[0] = 0.0
        self.table = nn.Parameter(weight, requires_grad=False)
        self.hidden, self.output, self.activation = model.hidden, model.output, model.activation

    def forward(self, ngram_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        summed = nn.functional.embedding(ngram_ids, self.table).sum(1)
        count = (ngram_ids != 0).sum(1, keepdim=True).clamp(min=1).to(summed.dtype)
        logits = self.output(self.activation(self.hidden(summed / count)))
        return logits, logits.softmax(-1)


def _reader_config(config: dict[str, Any]) -> dict[str, Any]:
    """The reader `allennlp predict` uses: the validation reader when the config has one."""
    reader = config.get("validation_dataset_reader") or config.get("dataset_reader") or {}
    if current_name(reader.get("type", "")) != NGRAM_TEXT_READER:
        raise ConfigurationError(
            f"cannot export this {MODEL_TYPE}: its reader is {reader.get('type')!r}, "
            f"the exporter knows {NGRAM_TEXT_READER!r} only"
        )
    return reader


def analyzer_settings(reader: dict[str, Any]) -> dict[str, Any]:
    """The reader's CountVectorizer analyzer as plain settings, read off the analyzer it builds, and
    refused where the runtime could not repeat it exactly."""
    ngram_range = tuple(reader.get("ngram_range", (1, 4)))
    lowercase = bool(reader.get("lowercase", True))
    analyzer = make_analyzer(ngram_range, lowercase)
    vectorizer = getattr(getattr(analyzer, "keywords", {}).get("ngrams"), "__self__", None)
    if vectorizer is None or vectorizer.analyzer != "word":
        raise ConfigurationError(
            f"cannot export this {MODEL_TYPE}: its analyzer is not CountVectorizer's word analyzer"
        )
    for setting in ("strip_accents", "stop_words", "preprocessor", "tokenizer"):
        if getattr(vectorizer, setting) is not None:
            raise ConfigurationError(
                f"cannot export this {MODEL_TYPE}: the runtime does not repeat CountVectorizer's {setting}"
            )
    return {
        "type": WORD_ANALYZER,
        "token_pattern": vectorizer.token_pattern,
        "lowercase": bool(vectorizer.lowercase),
        "ngram_range": list(vectorizer.ngram_range),
    }


def _namespace_tokens(model: NgramDan, namespace: str) -> list[str]:
    vocab = model.vocab
    return [vocab.get_token_from_index(i, namespace) for i in range(vocab.get_vocab_size(namespace))]


def dan_metadata(model: NgramDan, config: dict[str, Any]) -> dict[str, Any]:
    """Everything the runtime needs besides the graph and the n-gram file."""
    reader = _reader_config(config)
    names = reader.get("label_names") or {}  # the predictor shows labels under the reader's names
    labels = [names.get(label, label) for label in _namespace_tokens(model, model.label_namespace)]
    return {
        "model_type": MODEL_TYPE,
        "labels": labels,
        "analyzer": analyzer_settings(reader),
        "ngrams": {
            "file": NGRAM_FILE,
            "count": model.vocab.get_vocab_size(model.ngram_namespace) - FIRST_NGRAM_ID,
            "first_id": FIRST_NGRAM_ID,
            # the graph's table: first_id + count rows, checked at load (an edited first_id shifted every id)
            "rows": int(model.ngram_embedding.weight.shape[0]),
        },
        "max_length": None,  # the reader keeps every n-gram of a text
        "inputs": {"ngram_ids": INPUT_NAME},
        "outputs": {name: name for name in OUTPUT_NAMES},
        "embedding_dim": int(model.ngram_embedding.embedding_dim),
    }


def write_ngrams(model: NgramDan, path: Path) -> None:
    """The n-gram vocabulary, one n-gram per line, line k holding id FIRST_NGRAM_ID + k."""
    ngrams = _namespace_tokens(model, model.ngram_namespace)[FIRST_NGRAM_ID:]
    bad = next((ngram for ngram in ngrams if "\n" in ngram or "\r" in ngram or not ngram), None)
    if bad is not None:
        raise ConfigurationError(f"cannot export this {MODEL_TYPE}: n-gram {bad!r} cannot be written one per line")
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write("".join(ngram + "\n" for ngram in ngrams))


def export_onnx(model: NgramDan, path: Path) -> None:
    """Trace `DanGraph` into an ONNX file with the batch and n-gram axes dynamic."""
    graph = DanGraph(model).eval()
    example = torch.tensor([[2, 3, 0], [4, 0, 0]], dtype=torch.long)
    axes = {INPUT_NAME: {0: "batch", 1: "ngrams"}, "logits": {0: "batch"}, "probs": {0: "batch"}}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the TorchScript exporter announces its deprecation
        torch.onnx.export(
            graph,
            (example,),
            str(path),
            dynamo=False,
            opset_version=OPSET,
            input_names=[INPUT_NAME],
            output_names=OUTPUT_NAMES,
            dynamic_axes=axes,
            do_constant_folding=True,
        )


def export(model: NgramDan, config_params: Any, output_dir: Path) -> dict[str, Any]:
    """Write `model.onnx`, the n-gram file and its index for `model` into `output_dir`; return the
    DAN's JSON metadata."""
    if not isinstance(model, NgramDan):
        raise ConfigurationError(f"expected an {MODEL_TYPE} model, got {type(model).__name__}")
    config = config_params.as_dict(quiet=True) if hasattr(config_params, "as_dict") else dict(config_params)
    meta = dan_metadata(model, config)
    output_dir = Path(output_dir)
    write_ngrams(model, output_dir / NGRAM_FILE)
    meta["ngrams"]["index"] = write_index(output_dir, output_dir / NGRAM_FILE)
    export_onnx(model, output_dir / "model.onnx")
    logger.info("n-gram DAN: %d n-grams, %d labels", meta["ngrams"]["count"], len(meta["labels"]))
    return meta
