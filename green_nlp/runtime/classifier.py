"""The n-gram DAN on onnxruntime: the `green_text_classifier` predictor's answers without torch,
allennlp or scikit-learn.

Texts become padded n-gram id matrices in numpy (`ngram_extractor`, the reader's CountVectorizer
analyzer repeated exactly); the exported graph (`green_nlp.export.dan`) sums the embeddings and
runs the two layers, in fp32 or int8 depending on the session the loader opened.
"""

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any, ClassVar, Optional, Union

import numpy as np

from green_nlp.names import NGRAM_DAN, current_name
from green_nlp.runtime.errors import InputError, InputFailure, ModelFolderError
from green_nlp.runtime.folder_files import HASHES_KEY, META_FILE, inside, sha256_file
from green_nlp.runtime.input_checks import check_many, check_text
from green_nlp.runtime.length_batches import check_count
from green_nlp.runtime.ngram_extractor import NgramExtractor, pad
from green_nlp.runtime.ngram_index import INDEX_VERSION, NgramIndex
from green_nlp.runtime.text_sentences import split_sentences

# what a text without a single known n-gram gets: "flag" (its prediction, the model's prior, with
# `no_known_features: true`, counted in the CLI's summary) or "error" (an error instead of a label)
NO_FEATURES_SETTINGS = ("flag", "error")
NO_FEATURES_WARNING = "with no known n-gram"
EMPTY_TEXT = "is empty: nothing to classify"


class NoKnownFeatures(InputError):
    """A text holds no n-gram the model knows: its label would be the model's prior alone."""

    def __init__(self, subject: str = "text", problem: str = "", index: Optional[int] = None) -> None:
        super().__init__(subject, problem or NO_FEATURES_PROBLEM, index)


NO_FEATURES_PROBLEM = (
    "has no n-gram the model knows: its label would be the model's prior, not a prediction "
    '(no_known_features="flag" gives it flagged instead)'
)


def check_no_features_setting(setting: str) -> str:
    if setting not in NO_FEATURES_SETTINGS:
        raise ValueError(f"no_known_features must be one of {', '.join(NO_FEATURES_SETTINGS)}, got {setting!r}")
    return setting


def no_features_message() -> str:
    return (
        "no n-gram of this text is known to the model: its label would be the model's prior, "
        'not a prediction (no_known_features="flag", or --no-known-features flag, gives it flagged instead)'
    )


# a batch whose padded matrix would exceed this many ids (and 4x its real ids) runs in length-sorted
# parts, so one very long text does not pad every other text of its batch to its length
MAX_PADDED_IDS = 1 << 16
ENGINES = ("onnxruntime", "numba")


@dataclass
class Classification:
    """One text's prediction. `probabilities` maps every label to its probability, in the
    model's label order."""

    # results carry `error = None`; a *_many call's `InputFailure` in their place has the error
    error: ClassVar[None] = None

    label: str
    probabilities: dict[str, float]
    logits: list[float]
    num_ngrams: int

    @property
    def no_known_features(self) -> bool:
        """No n-gram of the text is known: the label is the model's prior, not read from the text."""
        return self.num_ngrams == 0

    def to_json(self) -> dict[str, Any]:
        """The predictor's JSON keys: `probs` in label order, named by `label_names`."""
        return {
            "label": self.label,
            "probs": list(self.probabilities.values()),
            "label_names": list(self.probabilities),
            "logits": self.logits,
            "num_ngrams": self.num_ngrams,
            "no_known_features": self.no_known_features,
        }

    def json_line(self, line: int) -> str:
        """The CLI's record of this result, `{"line": line, **to_json()}` as one JSON line, the
        bytes `json.dumps(..., ensure_ascii=False)` writes; built from cached label strings and
        float reprs, since `json.dumps` of the dict cost as much as the model per text."""
        probs, logits = _json_numbers(list(self.probabilities.values())), _json_numbers(self.logits)
        return (
            f'{{"line": {line}, "label": {_json_string(self.label)}, "probs": [{probs}], '
            f'"label_names": [{_json_names(tuple(self.probabilities))}], "logits": [{logits}], '
            f'"num_ngrams": {self.num_ngrams}, "no_known_features": {"true" if self.num_ngrams == 0 else "false"}}}\n'
        )


@cache
def _json_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


@cache
def _json_names(names: tuple[str, ...]) -> str:
    return ", ".join(_json_string(name) for name in names)


def _json_numbers(values: list[float]) -> str:
    """Floats as `json.dumps` writes them: `float.__repr__`, except NaN and infinities (the only
    reprs holding an "n") and values that are not floats, which go through `json` itself."""
    try:
        text = ", ".join(map(float.__repr__, values))
    except TypeError:
        return json.dumps(values)[1:-1]
    return json.dumps(values)[1:-1] if "n" in text else text


def mean_of_sentences(sentences: Sequence[Classification], labels: Sequence[str]) -> Classification:
    """One text's classification from its sentences': the mean of the logits of the sentences with a
    known n-gram (of all, if none has one), its softmax as the probabilities, and every sentence's
    n-grams counted. A text of one such sentence gets that sentence's result, bit for bit."""
    counts = [result.num_ngrams for result in sentences]
    known = [sentences[i] for i in sentences_to_average(counts)]
    if len(known) == 1:
        only = known[0]
        return Classification(only.label, only.probabilities, only.logits, sum(counts))
    mean, probabilities = mean_logits([result.logits for result in known])
    return Classification(labels[int(np.argmax(mean))], dict(zip(labels, probabilities)), mean, sum(counts))


def sentences_to_average(ngram_counts: Sequence[Optional[int]]) -> list[int]:
    """Which of a text's sentences its mean takes: those with a known n-gram (a count of None, from
    a model that counts none, is known), or all of them where none has one."""
    return [i for i, count in enumerate(ngram_counts) if count is None or count > 0] or list(range(len(ngram_counts)))


def mean_logits(rows: Sequence[Sequence[float]]) -> tuple[list[float], list[float]]:
    """The mean of the rows' logits (in float64) and its softmax: a text's from its sentences'.
    Shared by the runtime and the AllenNLP predictor so both average alike."""
    logits: np.ndarray = np.mean(np.array(rows, dtype=np.float64), axis=0)
    exp = np.exp(logits - logits.max())
    return logits.tolist(), (exp / exp.sum()).tolist()


def read_ngrams(path: Path) -> list[str]:
    """The exported n-gram file: one n-gram per line (split on "\\n" only: n-grams hold no newline)."""
    return ngram_lines(path.read_text(encoding="utf-8"))


def ngram_lines(text: str) -> list[str]:
    """The n-grams of an n-gram file's text."""
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n") if text else []


def padded_parts(counts: np.ndarray) -> list[np.ndarray]:
    """Row groups of a batch whose padded size stays near its real size: all rows at once when
    padding costs little, else rows in order of n-gram count, cut where a group would pad past
    the budget."""
    size = len(counts)
    if size < 4:  # a few rows pad little; skip the numpy calls (they cost more than one text's model)
        return [np.arange(size)]
    total = int(counts.sum())
    budget = max(MAX_PADDED_IDS, 4 * total)
    if size * max(1, int(counts.max(initial=0))) <= budget:
        return [np.arange(size)]
    parts: list[np.ndarray] = []
    current: list[int] = []
    for row in np.argsort(counts, kind="stable"):
        if current and (len(current) + 1) * max(1, int(counts[row])) > budget:
            parts.append(np.array(current))
            current = []
        current.append(int(row))
    parts.append(np.array(current))
    return parts


class ClassifierRuntime:
    """A loaded n-gram DAN folder. Use `green_nlp.runtime.load(folder)` rather than this constructor."""

    family = "classifier"

    def __init__(self, folder: Path, meta: dict[str, Any], session: Any) -> None:
        if current_name(meta.get("model_type", "")) != NGRAM_DAN:
            raise ValueError(f"{folder}: this runtime runs n-gram DAN classifiers, not {meta.get('model_type')!r}")
        self.folder = Path(folder)
        self.meta = meta
        self.session = session
        self.labels: list[str] = list(meta["labels"])
        ngram_meta, analyzer = meta["ngrams"], meta["analyzer"]
        self._list_sha256 = ""  # the n-gram list's, where its index was checked against it
        ngrams = self._ngrams(ngram_meta)
        try:
            self.extractor = NgramExtractor(
                ngrams,
                tuple(analyzer["ngram_range"]),
                analyzer["token_pattern"],
                bool(analyzer["lowercase"]),
                int(ngram_meta["first_id"]),
                ngram_list=self._checked_ngram_list if isinstance(ngrams, NgramIndex) else None,
            )
        except ValueError as error:  # its analyzer or n-gram settings (a token_pattern that does not compile)
            raise ModelFolderError(f"{self.folder}: {META_FILE}: {error}") from None
        self._input = meta["inputs"]["ngram_ids"]
        self._outputs = [meta["outputs"]["logits"], meta["outputs"]["probs"]]
        # True: each text's sentences are classified and their logits averaged (`mean_of_sentences`),
        # for texts longer than the sentences the model learnt from; `green-nlp classify --split-sentences`
        self.split_sentences = False
        self.graph_file: Optional[Path] = None  # the graph `session` runs (set by `load`)
        self.engine = "onnxruntime"
        self._numba: Optional[Any] = None  # `dan_numba.NumbaDan` under the numba engine

    def set_engine(self, engine: str) -> "ClassifierRuntime":
        """Which engine classifies from now on: "onnxruntime" (the default: the session `load` opened)
        or "numba" (the same int8 graph's arithmetic compiled by numba, several times faster per text
        at small batches once started, but about half a second slower to start; `dan_numba`). Choose
        it before classifying: every text of a run should get one engine's answers."""
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
        if engine == "numba" and self._numba is None:
            from green_nlp.runtime.dan_graph_weights import GraphLayoutError
            from green_nlp.runtime.dan_numba import NumbaDan

            if self.graph_file is None:
                raise ValueError("the numba engine needs the runtime's graph file: load the model with green_nlp.load")
            try:
                self._numba = NumbaDan(
                    self.graph_file, self.extractor.table, self.extractor.ngram_range, self.extractor.tokenizer
                )
            except (GraphLayoutError, ValueError) as error:  # a graph or analyzer the engine cannot run
                raise ModelFolderError(f"{self.folder}: {error}") from None
            if self._numba.labels != len(self.labels):
                raise ModelFolderError(
                    f"{self.folder}: the graph scores {self._numba.labels} labels, {META_FILE} lists "
                    f"{len(self.labels)}; re-export the model"
                )
        self.engine = engine
        return self

    def _ngrams(self, ngram_meta: dict[str, Any]) -> Union[list[str], NgramIndex]:
        """The folder's n-grams: numbered from its index where it has one this runtime reads (a
        faster start), else read from its list."""
        count = int(ngram_meta["count"])
        index = ngram_meta.get("index")
        path = inside(self.folder, "ngrams.file", ngram_meta["file"])
        if isinstance(index, dict) and index.get("version") == INDEX_VERSION:
            index_path = inside(self.folder, "ngrams.index.file", index.get("file"))
            rebuild = f"rebuild it with python -m green_nlp.export.ngram_index {self.folder}"
            try:
                numbered = NgramIndex.read(index_path, count)
            except (OSError, ValueError) as error:
                raise ModelFolderError(f"{index_path}: {error}; {rebuild}") from None
            # the list's hash as the folder records it (checked against the file before this), else read
            listed = (self.meta.get(HASHES_KEY) or {}).get(path.name) or sha256_file(path)
            if numbered.source_sha256 != listed:
                raise ModelFolderError(
                    f"{index_path}: numbers other n-grams than {path.name} holds (it was built from another "
                    f"list); {rebuild}"
                )
            self._list_sha256 = listed
            return numbered
        ngrams = read_ngrams(path)
        if len(ngrams) != count:
            raise ValueError(f"{path}: {len(ngrams)} n-grams, the metadata says {count}")
        return ngrams

    def _checked_ngram_list(self) -> Optional[list[str]]:
        """The folder's n-gram list as strings, read when one text's lookup first needs them; None
        (the table then rebuilds them from the index) if the file no longer has the hash the index
        was checked against."""
        data = inside(self.folder, "ngrams.file", self.meta["ngrams"]["file"]).read_bytes()
        return ngram_lines(data.decode("utf-8")) if hashlib.sha256(data).hexdigest() == self._list_sha256 else None

    def classify(
        self, text: str, no_known_features: str = "flag", split_sentences: Optional[bool] = None
    ) -> Classification:
        """One text -> its label and probabilities. A text the model cannot take (empty, holding a
        NUL or a lone surrogate) raises `InputError`; a leading byte-order mark is dropped. A text
        without a known n-gram is flagged (`no_known_features`), or with `no_known_features="error"`
        raises `NoKnownFeatures` (an `InputError`). `split_sentences`: the mean of the text's
        sentences (None: the runtime's `split_sentences`)."""
        check_no_features_setting(no_known_features)
        checked, split = check_text(text, EMPTY_TEXT), self._split(split_sentences)
        if self._numba is not None and self.engine == "numba" and not split:  # the short way: batch 1 is its use
            result = self._classify_compiled([checked])[0]
        else:
            result = self._classify_batch([checked], split)[0]
        if no_known_features == "error" and result.no_known_features:
            raise NoKnownFeatures()
        return result

    def classify_many(
        self,
        texts: Iterable[str],
        batch_size: int = 32,
        no_known_features: str = "flag",
        split_sentences: Optional[bool] = None,
    ) -> Iterator[Union[Classification, InputFailure]]:
        """One `Classification` per text, in input order, `batch_size` texts per model call;
        streams, so `texts` may be a file or any other iterator. A text the model cannot take (see
        `classify`) gives an `InputFailure` in its place, its error naming it by its 0-based index
        (`texts[2] ...`), as does a text without a known n-gram with `no_known_features="error"`.
        `split_sentences` as in `classify`."""
        check_many("texts", texts)
        check_count("batch_size", batch_size)
        check_no_features_setting(no_known_features)
        split = self._split(split_sentences)
        strict = no_known_features == "error"
        numbered = enumerate(texts)
        while True:
            batch = list(islice(numbered, batch_size))
            if not batch:
                return
            good: list[str] = []
            failures: dict[int, InputFailure] = {}
            for index, text in batch:
                try:
                    good.append(check_text(text, EMPTY_TEXT))
                except InputError as error:
                    failures[index] = InputFailure(error.at(index, "texts"))
            results = iter(self._classify_batch(good, split) if good else [])
            for index, _ in batch:
                if index in failures:
                    yield failures[index]
                    continue
                result = next(results)
                if strict and result.no_known_features:
                    yield InputFailure(NoKnownFeatures(f"texts[{index}]", index=index))
                else:
                    yield result

    def _split(self, split_sentences: Optional[bool]) -> bool:
        return self.split_sentences if split_sentences is None else bool(split_sentences)

    def _classify_batch(self, texts: Sequence[str], split: bool) -> list[Classification]:
        """Checked texts (`check_text`) -> their classifications, in order: of each text whole, or
        with `split` the mean of its sentences'."""
        if not split:
            return self._classify_texts(texts)
        pieces = [split_sentences(text) for text in texts]
        results = self._classify_texts([sentence for sentences in pieces for sentence in sentences])
        means, start = [], 0
        for sentences in pieces:
            means.append(mean_of_sentences(results[start : start + len(sentences)], self.labels))
            start += len(sentences)
        return means

    def _classify_texts(self, texts: Sequence[str]) -> list[Classification]:
        """Each text whole -> its classification, in order."""
        if self.engine == "numba":
            return self._classify_compiled(texts)
        if len(texts) == 1:
            return [self._classify_one(texts[0])]
        ids, counts = self.extractor.ids(texts)
        parts = padded_parts(counts)
        if len(parts) == 1:
            logits, probs = self.session.run(self._outputs, {self._input: pad(ids, counts)})
        else:
            logits = np.empty((len(texts), len(self.labels)), dtype=np.float32)
            probs = np.empty_like(logits)
            for rows in parts:
                logits[rows], probs[rows] = self.session.run(self._outputs, {self._input: pad(ids, counts, rows)})
        labels = self._checked_labels(probs)
        # whole-batch conversions: numpy calls per row would cost more than the model here
        best = probs.argmax(1).tolist()
        return [
            Classification(labels[top], dict(zip(labels, row)), logit_row, count)
            for top, row, logit_row, count in zip(best, probs.tolist(), logits.tolist(), counts.tolist())
        ]

    def _classify_one(self, text: str) -> Classification:
        """One text whole: the batch path's answer, bit for bit (the same one-row matrix reaches the
        graph), without its numpy calls for grouping, padding and splitting a batch (a few per cent
        of a text's time at batch 1: 206 against 212 us on SST-2 test, alternating passes)."""
        extractor = self.extractor
        ids = extractor.table.text_ids(extractor.tokenizer.runs(text), *extractor.ngram_range)
        matrix = np.array([ids], dtype=np.int64) if ids else np.zeros((1, 1), dtype=np.int64)
        logits, probs = self.session.run(self._outputs, {self._input: matrix})
        labels = self._checked_labels(probs)
        return Classification(
            labels[int(probs[0].argmax())], dict(zip(labels, probs[0].tolist())), logits[0].tolist(), len(ids)
        )

    def _classify_compiled(self, texts: Sequence[str]) -> list[Classification]:
        """The numba engine: the texts through one compiled call."""
        assert self._numba is not None  # set with the engine
        labels = self.labels
        rows = self._numba.run(texts)
        if len(labels) == 2:  # two labels (sentiment): a dict display costs a quarter of dict(zip(...)), per text
            first, second = labels
            return [
                Classification(labels[int(row[5])], {first: row[2], second: row[3]}, row[:2], int(row[4]))
                for row in rows
            ]
        size = len(labels)  # zip stops at the labels: the count and best label after the probabilities stay out
        return [
            Classification(labels[int(row[-1])], dict(zip(labels, row[size:])), row[:size], int(row[-2]))
            for row in rows
        ]

    def _checked_labels(self, probs: np.ndarray) -> list[str]:
        if probs.shape[1] != len(self.labels):
            raise ModelFolderError(
                f"{self.folder}: the graph scores {probs.shape[1]} labels, {META_FILE} lists {len(self.labels)}; "
                "re-export the model"
            )
        return self.labels
