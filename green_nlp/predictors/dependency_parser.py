"""`allennlp predict` for the biaffine parser: raw text or CoNLL-U in, CoNLL-U or JSON lines out."""

import json
import logging
from pathlib import Path
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.common.util import JsonDict, sanitize
from allennlp.data import DatasetReader, Instance
from allennlp.models import Model
from allennlp.predictors import Predictor

from green_nlp.dataset_readers.conllu_dependencies import UPOS_NAMESPACE
from green_nlp.dataset_readers.long_sentences import LongSentenceWarning
from green_nlp.line_stream import check_json_fields, comment_block, json_object
from green_nlp.predictors.spacy_segmenter import SpacySegmenter
from green_nlp.runtime.conllu_output import sentence_to_conllu as to_conllu
from green_nlp.runtime.lemma_choice import AttestedWords  # shared with the ONNX runtime
from green_nlp.runtime.line_inputs import looks_like_conllu
from green_nlp.runtime.treebank_tokenization import TokenizationRules
from green_nlp.runtime.universal_pos import first_unknown_tag, unknown_tag_problem

logger = logging.getLogger(__name__)

OUTPUT_FORMATS = ("conllu", "json")


@Predictor.register("green_dependency_parser")
class DependencyParserPredictor(Predictor):
    """
    Input lines are either raw text (one sentence or paragraph per line; spaCy's rule-based
    tokenizer and sentencizer split it, no model download) or JSON objects with `"sentence"`
    (text) or `"words"` (pre-tokenized, plus optional `"upos"`). With `--use-dataset-reader` the
    input is a CoNLL-U file and its other columns are carried through to the output, multiword-token
    lines (`2-3 cannot _ ...`) included; empty nodes (`5.1`, enhanced graphs only) are dropped. Add
    `-o '{"validation_dataset_reader.skip_malformed": true}'` to report a malformed sentence as
    `file:line: why` on stderr and go on with the next one.
    A model with the LEMMA / FEATS / XPOS heads (`predict_lemmas` ...) writes those columns too
    (`lemmas`, `feats`, `xpos` in JSON), in place of a CoNLL-U input's own; where its archive carries
    a lemma dictionary (`green_nlp.export.lemma_lexicon`), a word seen in training with the predicted
    UPOS gets the dictionary's lemma instead of the edit script's (the model applies it).

    One input line gives one output record holding all its sentences, so output order and count
    follow the input. A line that cannot be parsed yields an `{"error": ...}` record (a `#` comment
    in CoNLL-U mode) instead of ending the run.

    # Parameters

    language : `str`, optional (default = `"en"`)
        Language code for `spacy.blank`, which picks the tokenizer rules.
    output_format : `str`, optional (default = `"conllu"`)
        `"conllu"` or `"json"`.
    max_sentence_length : `int`, optional (default = `1000`)
        Longer sentences are reported as errors rather than exhausting memory (scores are n^2).
    tokenizer_rules : `str`, optional (default = `None`)
        A `tokenizer_rules.json` (an exported folder's, or `allennlp green-learn-tokenizer`'s) that brings
        spaCy's tokens to the treebank's word conventions, as the runtime does with that folder.
    attested_words : `str`, optional (default = `None`)
        An `attested_words.txt` (an exported folder's): where the LEMMA head's best edit script makes
        a string that is not a word, its next-best script that makes one is taken
        (`green_nlp.runtime.lemma_choice`), as the runtime does with that folder.
    """

    def __init__(
        self,
        model: Model,
        dataset_reader: DatasetReader,
        language: str = "en",
        output_format: str = "conllu",
        max_sentence_length: int = 1000,
        frozen: bool = True,
        tokenizer_rules: Optional[str] = None,
        attested_words: Optional[str] = None,
    ) -> None:
        super().__init__(model, dataset_reader, frozen)
        if output_format not in OUTPUT_FORMATS:
            raise ConfigurationError(f"output_format must be one of {', '.join(OUTPUT_FORMATS)}, got {output_format!r}")
        if isinstance(max_sentence_length, bool) or not isinstance(max_sentence_length, int) or max_sentence_length < 1:
            raise ConfigurationError(
                f"max_sentence_length must be a positive whole number, got {max_sentence_length!r}"
            )
        self._output_format = output_format
        self._max_sentence_length = max_sentence_length
        rules = TokenizationRules.read(Path(tokenizer_rules)) if tokenizer_rules else None
        if attested_words:
            if "lemma_rules" not in getattr(model, "extra_heads", {}):
                raise ConfigurationError("attested_words is for a parser with the LEMMA head (predict_lemmas)")
            try:
                model.attested_words = AttestedWords.read(Path(attested_words))  # type: ignore[assignment]
            except (OSError, ValueError) as error:
                raise ConfigurationError(f"attested_words: {error}") from None
        self._segmenter = SpacySegmenter(language, rules)
        self._line_number = 0
        self._long_sentences = LongSentenceWarning(
            "lower it to refuse such sentences (an error record), e.g. --predictor-args "
            """'{"max_sentence_length": 300}'"""
        )

    # ------------------------------------------------------------------ input
    def load_line(self, line: str) -> JsonDict:
        """JSON objects pass through; any other line is raw text. A line that starts with `{` but
        does not parse, or whose fields have the wrong type, raises ValueError (see
        `green_nlp.line_stream.json_object`). Both carry a `line` for error records (the line
        streamers overwrite it with the file's physical line number)."""
        self._line_number += 1
        record = json_object(line)
        if record is not None:
            record.setdefault("line", self._line_number)
            return record
        if looks_like_conllu(line):  # parsed as prose it would give a tree of its column values
            raise ValueError(
                "this looks like CoNLL-U, which predict reads as raw text or JSON lines only: "
                "read a CoNLL-U file with --use-dataset-reader"
            )
        return {"sentence": line.strip(), "line": self._line_number}

    def _sentences(self, inputs: JsonDict) -> list[dict[str, Any]]:
        check_json_fields(inputs)
        if "words" in inputs:
            words, upos = list(inputs["words"]), inputs.get("upos")
            if upos is not None and len(upos) != len(words):
                raise ValueError(f"'upos' has {len(upos)} tags for {len(words)} 'words'")
            if upos is not None:
                self._check_tags(upos)
            return [{"words": words, "upos": upos}]
        key = "sentence" if "sentence" in inputs else "text"  # `text`, as the ONNX runtime and the server read it
        if key not in inputs:
            raise ValueError("input needs a 'sentence' or 'text' (text) or 'words' (list of tokens) key")
        segmented = self._segmenter.segment(inputs[key])
        sentences = [{"words": words, "upos": None, "text": text} for text, words in segmented]
        if not sentences:  # else the line would vanish from the CoNLL-U output without a word
            raise ValueError(f"no words to parse in {key!r}")
        return sentences

    def _check_tags(self, upos: list[str]) -> None:
        """A model that embeds gold UPOS reads an unseen tag as unknown: right for a rare Universal POS
        tag, silently wrong for a tag of another tagset (see `green_nlp.runtime.universal_pos`)."""
        if getattr(self._model, "upos_embedding", None) is None:
            return  # the tags are not read
        known = set(self._model.vocab.get_token_to_index_vocabulary(UPOS_NAMESPACE))
        unknown = first_unknown_tag(upos, known, reads_unknown=self._model.vocab._oov_token in known)
        if unknown is not None:
            raise ValueError(f"'upos' item {unknown + 1} {unknown_tag_problem(upos[unknown], known)}")

    def _check(self, words: list[str]) -> None:
        if not words:
            raise ValueError("no tokens to parse")
        if len(words) > self._max_sentence_length:
            raise ValueError(
                f"sentence has {len(words)} tokens, over max_sentence_length="
                f"{self._max_sentence_length}; split it or raise the limit, e.g. --predictor-args "
                f"""'{{"max_sentence_length": {len(words)}}}'"""
            )

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        sentence = self._sentences(json_dict)[0]
        return self._dataset_reader.text_to_instance(sentence["words"], sentence["upos"])

    # ---------------------------------------------------------------- predict
    def predict_json(self, inputs: JsonDict) -> JsonDict:
        return self.predict_batch_json([inputs])[0]

    def predict_batch_json(self, inputs: list[JsonDict]) -> list[JsonDict]:
        """All sentences of all lines go through the model as one batch, then regroup per line."""
        per_line: list[Any] = []
        instances: list[Instance] = []
        for record in inputs:
            try:
                sentences = self._sentences(record)
                for sentence in sentences:
                    self._check(sentence["words"])
                    where = f"line {record.get('line')}"
                    self._long_sentences.check(len(sentence["words"]), where, self._max_sentence_length)
                line_instances = [self._dataset_reader.text_to_instance(s["words"], s["upos"]) for s in sentences]
            except (ValueError, TypeError, KeyError) as error:
                per_line.append({"error": str(error), "line": record.get("line")})
                continue
            per_line.append((sentences, len(instances), len(line_instances)))
            instances.extend(line_instances)
        outputs = self._predict(instances)
        results = []
        for entry in per_line:
            if isinstance(entry, dict):
                # debug: the error record carries it, and allennlp predict / green-predict warn once per line
                logger.debug("line %s skipped: %s", entry.get("line"), entry["error"])
                results.append(entry)
                continue
            sentences, start, count = entry
            records = []
            for sentence, output in zip(sentences, outputs[start : start + count]):
                record = self._sentence_record(sentence["words"], sentence["upos"], output)
                multiword = self._segmenter.multiword_tokens(sentence.get("text"), sentence["words"])
                if multiword:
                    record["multiword_tokens"] = multiword
                if sentence.get("text"):
                    record["comments"] = {"text": sentence["text"]}
                records.append(record)
            results.append({"sentences": records})
        return sanitize(results)

    def predict_instance(self, instance: Instance) -> JsonDict:
        return self.predict_batch_instance([instance])[0]

    def predict_batch_instance(self, instances: list[Instance]) -> list[JsonDict]:
        """CoNLL-U input (`--use-dataset-reader`): keep the file's other columns in the output."""
        outputs = self._predict(instances)
        results = []
        for instance, output in zip(instances, outputs):
            metadata = instance["metadata"].metadata  # type: ignore[attr-defined]
            record = self._sentence_record(metadata["words"], metadata.get("upos"), output)
            source = metadata.get("sentence")
            if source is not None:
                # the file's UPOS / LEMMA / XPOS / FEATS where the model neither predicts nor reads them
                kept = {key: getattr(source, key) for key in ("upos", "lemmas", "xpos", "feats") if key not in record}
                record.update(kept, misc=source.misc, comments=source.metadata, gold_upos=source.upos)
                if source.multiword_tokens:
                    record["multiword_tokens"] = [columns for _, columns in source.multiword_tokens]
            results.append({"sentences": [record]})
        return sanitize(results)

    def _predict(self, instances: list[Instance]) -> list[dict[str, Any]]:
        if not instances:
            return []
        for instance in instances:
            self._dataset_reader.apply_token_indexers(instance)
        return self._model.forward_on_instances(instances)

    @staticmethod
    def _sentence_record(words: list[str], upos: Optional[list[str]], output: dict[str, Any]) -> dict[str, Any]:
        """The sentence's JSON record; `lemmas`, `xpos`, `feats` only from a model with those heads."""
        record = {"words": words, "heads": output["predicted_heads"], "deprels": output["predicted_deprels"]}
        tags = output.get("predicted_upos", upos)
        if tags is not None:  # none given nor predicted: no column (sanitize would make None the string "None")
            record["upos"] = tags
        for key in ("lemmas", "xpos", "feats"):
            if f"predicted_{key}" in output:
                record[key] = output[f"predicted_{key}"]
        return record

    # ----------------------------------------------------------------- output
    def dump_line(self, outputs: JsonDict) -> str:
        if self._output_format == "json":
            return json.dumps(outputs, ensure_ascii=False) + "\n"
        if "error" in outputs:  # the runtime's error block: comments a CoNLL-U reader parses as key = value
            return comment_block(outputs.get("line"), str(outputs["error"]))
        return "".join(to_conllu(sentence) for sentence in outputs["sentences"])
