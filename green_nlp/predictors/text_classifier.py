"""`allennlp predict` for text classifiers (the n-gram DAN and its transformer teacher): raw
text in, one document per line; JSON lines out with `label`, `probs` and `label_names`."""

import json
from typing import Any

import numpy as np
from allennlp.common.checks import ConfigurationError
from allennlp.common.util import JsonDict, sanitize
from allennlp.data import DatasetReader, Instance
from allennlp.models import Model
from allennlp.predictors import Predictor

from green_nlp.line_stream import check_json_fields, json_object
from green_nlp.runtime.classifier import (
    EMPTY_TEXT,
    NO_FEATURES_SETTINGS,
    mean_logits,
    no_features_message,
    sentences_to_average,
)
from green_nlp.runtime.text_sentences import split_sentences

OUTPUT_KEYS = ("label", "probs", "label_names", "logits", "num_ngrams")


@Predictor.register("green_text_classifier")
class TextClassifierPredictor(Predictor):
    """
    Each input line is a document; a line holding a JSON object is read as `{"text": ...}` or
    `{"sentence": ...}` (allennlp's classifier convention) instead. Input is streamed in batches
    (`--batch-size`), and each output line answers one input line, in order. `allennlp predict`
    itself skips blank lines. A document with no known n-gram (an n-gram DAN's `"num_ngrams": 0`)
    would get the model's prior as its label: with `no_known_features="flag"` (the default) it
    gets that label with `"no_known_features": true`, with `"error"` an error record instead
    (`--predictor-args '{"no_known_features": "error"}'`). A line that cannot be classified gives an error
    record `{"error": why, "line": N}` under `allennlp predict` and `green-predict` (see
    `green_nlp.patches.predict_per_line`).

    `probs` are in label-index order and `label_names` names them, so the output alone is
    enough to build spaCy's `doc.cats`. Labels are the vocabulary's, under the names of the
    reader's `label_names` where it has one: a model trained with names predicts them, and one
    trained on raw labels ("0"/"1") gets readable ones from an override such as
    `-o '{"validation_dataset_reader.label_names": {"0": "negative", "1": "positive"}}'`.

    With `split_sentences` (`--predictor-args '{"split_sentences": true}'`) each document's sentences
    are classified and its answer is the mean of their logits, as the runtime's `green-nlp classify
    --split-sentences` gives it (green_nlp/runtime/text_sentences.py).
    """

    def __init__(
        self,
        model: Model,
        dataset_reader: DatasetReader,
        frozen: bool = True,
        no_known_features: str = "flag",
        split_sentences: bool = False,
    ) -> None:
        super().__init__(model, dataset_reader, frozen)
        if no_known_features not in NO_FEATURES_SETTINGS:
            raise ConfigurationError(
                f"no_known_features must be one of {', '.join(NO_FEATURES_SETTINGS)}, got {no_known_features!r}"
            )
        if not isinstance(split_sentences, bool):
            raise ConfigurationError(f"split_sentences must be true or false, got {split_sentences!r}")
        self._no_known_features = no_known_features
        self._split_sentences = split_sentences

    def load_line(self, line: str) -> JsonDict:
        """A JSON object, or else raw text. A line that starts with `{` but does not parse, or whose
        fields have the wrong type, raises ValueError (see `green_nlp.line_stream.json_object`)."""
        record = json_object(line)
        return record if record is not None else {"text": line.strip()}

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        return self._dataset_reader.text_to_instance(self._text(json_dict))

    def _text(self, json_dict: JsonDict) -> str:
        check_json_fields(json_dict)
        text = json_dict.get("text", json_dict.get("sentence"))
        if not isinstance(text, str):
            # `line` is the line number `allennlp predict` adds (patches/predict_per_line), not the user's
            written = sorted(key for key in json_dict if key != "line")
            raise ValueError(f"expected a 'text' or 'sentence' string; the line has keys {written}")
        if not text.strip():  # as the ONNX runtime: no label for a text that holds nothing to read
            raise ValueError(f"'text' {EMPTY_TEXT}")
        return text

    def _readable(self, label: str) -> str:
        names = getattr(self._dataset_reader, "label_names", None) or {}
        return names.get(label, label)

    def _label_names(self) -> list[str]:
        namespace = getattr(self._model, "_label_namespace", "labels")
        names = self._model.vocab.get_index_to_token_vocabulary(namespace)
        return [names[i] for i in range(len(names))]

    def _select(self, output: dict[str, Any]) -> JsonDict:
        selected = {key: output[key] for key in OUTPUT_KEYS if key in output}
        selected["label_names"] = [
            self._readable(str(name)) for name in selected.get("label_names", self._label_names())
        ]
        if "label" in selected:
            selected["label"] = self._readable(str(selected["label"]))
        if "num_ngrams" in selected:  # an n-gram DAN: say when no n-gram of the text was known
            selected["no_known_features"] = int(selected["num_ngrams"]) == 0
            if selected["no_known_features"] and self._no_known_features == "error":
                return {"error": no_features_message()}
        return sanitize(selected)

    def predict_json(self, inputs: JsonDict) -> JsonDict:
        if not self._split_sentences:
            return super().predict_json(inputs)
        return self.predict_batch_json([inputs])[0]

    def predict_batch_json(self, inputs: list[JsonDict]) -> list[JsonDict]:
        if not self._split_sentences:
            return super().predict_batch_json(inputs)
        pieces = [split_sentences(self._text(json_dict)) for json_dict in inputs]
        instances = [self._dataset_reader.text_to_instance(sentence) for sentences in pieces for sentence in sentences]
        outputs = self._model.forward_on_instances(instances)
        answers, start = [], 0
        for sentences in pieces:
            answers.append(self._select(self._mean_of_sentences(outputs[start : start + len(sentences)])))
            start += len(sentences)
        return answers

    def _mean_of_sentences(self, outputs: list[dict[str, Any]]) -> dict[str, Any]:
        """One document's output from its sentences' (see `green_nlp.runtime.classifier.mean_of_sentences`)."""
        counts = [int(output["num_ngrams"]) if "num_ngrams" in output else None for output in outputs]
        known = [outputs[i] for i in sentences_to_average(counts)]
        merged = dict(known[0])
        if len(known) > 1:
            logits, probabilities = mean_logits([output["logits"] for output in known])
            names = [str(name) for name in known[0].get("label_names", self._label_names())]
            merged.update(logits=logits, probs=probabilities, label=names[int(np.argmax(logits))])
        if counts[0] is not None:
            merged["num_ngrams"] = sum(count or 0 for count in counts)
        return merged

    def predict_instance(self, instance: Instance) -> JsonDict:
        return self._select(super().predict_instance(instance))

    def predict_batch_instance(self, instances: list[Instance]) -> list[JsonDict]:
        return [self._select(output) for output in super().predict_batch_instance(instances)]

    def dump_line(self, outputs: JsonDict) -> str:
        """One JSON line: a prediction, or an error record `{"error": why, "line": N}` as it is."""
        return json.dumps(outputs) + "\n"
