"""`allennlp predict` for the LD-Net tagger: raw text in, words + BIOES tags + typed spans out."""

import json
from typing import Any

from allennlp.common.util import JsonDict, sanitize
from allennlp.data import DatasetReader, Instance
from allennlp.models import Model
from allennlp.predictors import Predictor

from green_nlp.dataset_readers.conll_tagging import bioes_to_spans
from green_nlp.line_stream import check_json_fields, json_object
from green_nlp.predictors.spacy_segmenter import SpacySegmenter


@Predictor.register("green_sentence_tagger")
class SentenceTaggerPredictor(Predictor):
    """
    Each input line is raw text (split into sentences and words by spaCy's rule-based tokenizer,
    no model download) or a JSON object with `"sentence"` (text) or `"words"` (tokens). Each line
    gives one record: `words` and `tags` (BIOES) over the whole line, `sentence_starts` (word index
    where each sentence begins) and `spans` as `{"start", "end", "label", "text"}` with word
    offsets, `end` exclusive (as in spaCy's `Span`). A line without words (`{"sentence": " "}`,
    `{"words": []}`) gives the error record `{"error": why}` in its place, as the parser predictor and
    the runtime (`green-nlp tag`) do; a blank input line is `allennlp predict`'s to skip and
    `green-predict`'s to report as blank. A line that cannot be tagged gives an error record
    `{"error": why, "line": N}` under `allennlp predict` and `green-predict` (see
    `green_nlp.patches.predict_per_line`).

    # Parameters

    language : `str`, optional (default = `"en"`)
        Language code for `spacy.blank`.
    """

    def __init__(self, model: Model, dataset_reader: DatasetReader, language: str = "en", frozen: bool = True) -> None:
        super().__init__(model, dataset_reader, frozen)
        self._segmenter = SpacySegmenter(language)

    def load_line(self, line: str) -> JsonDict:
        """A JSON object, or else raw text. A line that starts with `{` but does not parse, or whose
        fields have the wrong type, raises ValueError (see `green_nlp.line_stream.json_object`)."""
        record = json_object(line)
        return record if record is not None else {"sentence": line.strip()}

    def _sentences(self, inputs: JsonDict) -> list[list[str]]:
        check_json_fields(inputs)
        if "words" in inputs:
            return [list(inputs["words"])] if inputs["words"] else []
        key = "sentence" if "sentence" in inputs else "text"  # `text`, as green-nlp tag and the parser read it
        if key not in inputs:
            written = sorted(name for name in inputs if name != "line")  # `line`: added by allennlp predict
            raise ValueError(
                f"input needs a 'sentence' or 'text' (text) or 'words' (list of tokens) key; the line has {written}"
            )
        return self._segmenter.split(inputs[key])  # both given: the same text (check_json_fields)

    @staticmethod
    def _no_words(inputs: JsonDict) -> str:
        """Why a line without words cannot be tagged (the parser predictor's words, for tagging)."""
        return (
            "no tokens to tag"
            if "words" in inputs
            else f"no words to tag in {'sentence' if 'sentence' in inputs else 'text'!r}"
        )

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        sentences = self._sentences(json_dict)
        if not sentences:
            raise ValueError(self._no_words(json_dict))
        return self._dataset_reader.text_to_instance(sentences[0])

    def predict_json(self, inputs: JsonDict) -> JsonDict:
        return self.predict_batch_json([inputs])[0]

    def predict_batch_json(self, inputs: list[JsonDict]) -> list[JsonDict]:
        """Every sentence of every line in one batch, regrouped per line in input order; a line
        without words gets its error record in its place (not an empty record that looks tagged)."""
        per_line = [self._sentences(record) for record in inputs]
        instances = [self._dataset_reader.text_to_instance(words) for sentences in per_line for words in sentences]
        outputs = self._model.forward_on_instances(instances) if instances else []
        results: list[dict[str, Any]] = []
        position = 0
        for inputs_of_line, sentences in zip(inputs, per_line):
            if not sentences:
                line = {"line": inputs_of_line["line"]} if "line" in inputs_of_line else {}
                results.append({"error": self._no_words(inputs_of_line), **line})
                continue
            record: dict[str, Any] = {"words": [], "tags": [], "sentence_starts": [], "spans": []}
            for words in sentences:
                tags = outputs[position]["tags"]
                position += 1
                offset = len(record["words"])
                record["sentence_starts"].append(offset)
                record["words"].extend(words)
                record["tags"].extend(tags)
                for label, (start, end) in bioes_to_spans(list(tags)):
                    record["spans"].append(
                        {
                            "start": offset + start,
                            "end": offset + end + 1,
                            "label": label,
                            "text": " ".join(words[start : end + 1]),
                        }
                    )
            results.append(record)
        return sanitize(results)

    def dump_line(self, outputs: JsonDict) -> str:
        """One JSON line: a record, or an error record `{"error": why, "line": N}` as it is."""
        return json.dumps(outputs, ensure_ascii=False) + "\n"
