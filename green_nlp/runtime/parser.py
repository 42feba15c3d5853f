"""The biaffine dependency parser on onnxruntime: the `green_dependency_parser` predictor's answers
without torch or allennlp.

The graph (`green_nlp.export.parser`) gives arc scores, each word's best label for its greedy head
and the label MLP outputs; here the heads are decoded (greedy when a tree, else the maximum
spanning tree, `parser_decoding`) and words whose head the tree changed get their label scored
again in numpy with the exported label biaffine weight, as the model scores labels at its decoded
heads. A folder exported from a model with the LEMMA / FEATS / XPOS heads also gives each word's
lemma edit script (applied to the word here, `lemma_rules`), UFeats string and XPOS tag.
"""

from itertools import islice
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from green_nlp.runtime.errors import InputKindError
from green_nlp.runtime.lemma_rules import apply_rules
from green_nlp.runtime.length_batches import DEFAULT_SORT_WINDOW, by_length, check_batching, windows
from green_nlp.runtime.parser_decoding import ROOT_RELATION, decode_sentence
from green_nlp.runtime.parser_inputs import ParserInputs
from green_nlp.runtime.parser_results import ParsedDoc, ParsedSentence
from green_nlp.runtime.parser_segmenter import TextSegmenter

# the optional heads' output names in a folder's metadata, in graph order, and the record key each fills
EXTRA_OUTPUTS = {"lemma_rules": "lemmas", "feats": "feats", "xpos": "xpos"}

# one sentence to parse: (words, UPOS tags or None, sentence text or None)
Sentence = Tuple[List[str], Optional[List[str]], Optional[str]]


class ParserRuntime:
    """A loaded parser folder. Use `green_nlp.runtime.load(folder)` rather than this constructor."""

    family = "parser"

    def __init__(self, folder: Path, meta: Dict[str, Any], session: Any) -> None:
        self.folder = Path(folder)
        self.meta = meta
        self.session = session
        self.inputs = ParserInputs(meta["inputs"])
        outputs = meta["outputs"]
        self._outputs = [outputs["arc_scores"], outputs["greedy_labels"], outputs["label_dep"], outputs["label_head"]]
        if outputs.get("upos"):
            self._outputs.append(outputs["upos"])
        # (metadata key, its class labels) of each extra head, fetched after UPOS in this order
        self._extra: List[Tuple[str, List[str]]] = [
            (field, list(meta["labels"][field])) for field in EXTRA_OUTPUTS if outputs.get(field)
        ]
        self._outputs += [outputs[field] for field, _ in self._extra]
        self.deprels: List[str] = meta["labels"]["deprel"]
        has_root = ROOT_RELATION in self.deprels and len(self.deprels) > 1
        self._root_label: Optional[int] = self.deprels.index(ROOT_RELATION) if has_root else None
        self.upos_labels: Optional[List[str]] = meta["labels"].get("upos")
        self.max_sentence_length = int(meta.get("max_sentence_length", 1000))
        self.segmenter = TextSegmenter(meta.get("tokenizer", {}).get("language", "en"))
        scorer = meta.get("label_scorer", {})
        self._bias_x, self._bias_y = bool(scorer.get("bias_x", True)), bool(scorer.get("bias_y", True))
        self._label_weight: Optional[np.ndarray] = None

    # ------------------------------------------------------------- public API
    def parse(self, text: str) -> ParsedDoc:
        """Raw text (one sentence or a paragraph) -> its sentences, each a tree."""
        return next(self.parse_many([text]))

    def parse_many(
        self, lines: Iterable[str], batch_size: int = 32, sort_window: int = DEFAULT_SORT_WINDOW
    ) -> Iterator[ParsedDoc]:
        """One `ParsedDoc` per input text, in input order. Streams: `sort_window` texts are read at
        a time, their sentences sorted by length and parsed `batch_size` per model call (less
        padding, see `length_batches`; `sort_window=batch_size` batches a one-sentence-per-line
        file in file order). A text with a sentence the model cannot take (over
        `max_sentence_length` words) raises ValueError naming it, before that window's model calls."""
        check_batching(batch_size, sort_window)
        if self.inputs.needs_upos:
            raise InputKindError(
                "this parser was trained with gold UPOS input, which raw text does not have: give it "
                'tokens and tags (JSON lines {"words": [...], "upos": [...]}, or parse_tokens / '
                "parse_sentences in Python), or use a raw-text model"
            )
        for texts in windows(lines, sort_window):
            for text in texts:
                if not isinstance(text, str):
                    raise TypeError(f"expected text as str, got {type(text).__name__}")
            per_text: List[List[Sentence]] = [
                [(words, None, sentence) for sentence, words in self.segmenter.segment(text.strip())] for text in texts
            ]
            yield from self._parse_grouped(per_text, batch_size)

    def parse_tokens(self, words: Sequence[str], upos: Optional[Sequence[str]] = None) -> ParsedDoc:
        """One pre-tokenized sentence (with its UPOS tags when the model takes them)."""
        return next(self._parse_grouped([[(list(words), list(upos) if upos is not None else None, None)]]))

    def parse_sentences(
        self,
        sentences: Iterable[Tuple[Sequence[str], Optional[Sequence[str]]]],
        batch_size: int = 32,
        sort_window: int = DEFAULT_SORT_WINDOW,
    ) -> Iterator[ParsedSentence]:
        """Many pre-tokenized (words, UPOS or None) sentences, in input order; batched as `parse_many`."""
        check_batching(batch_size, sort_window)
        for chunk in windows(sentences, sort_window):
            groups: List[List[Sentence]] = [[(list(w), list(u) if u is not None else None, None)] for w, u in chunk]
            for doc in self._parse_grouped(groups, batch_size):
                yield doc.sentences[0]

    # --------------------------------------------------------------- batching
    def _parse_grouped(self, groups: List[List[Sentence]], batch_size: int = 32) -> Iterator[ParsedDoc]:
        """Every text's sentences, sorted by length across texts and parsed `batch_size` per call."""
        flat = [sentence for group in groups for sentence in group]
        for words, _, _ in flat:
            self._check(words)
        parsed: List[Optional[ParsedSentence]] = [None] * len(flat)
        for batch in by_length([len(words) for words, _, _ in flat], batch_size):
            for index, tree in zip(batch, self._predict([flat[i] for i in batch])):
                parsed[index] = tree
        trees = iter(parsed)
        for group in groups:
            yield ParsedDoc(list(islice(trees, len(group))))  # type: ignore[arg-type]

    def _check(self, words: List[str]) -> None:
        if not words:
            raise ValueError("no tokens to parse")
        if len(words) > self.max_sentence_length:
            raise ValueError(
                f"sentence has {len(words)} tokens, over max_sentence_length="
                f"{self.max_sentence_length}; split it or raise the limit"
            )

    def _predict(self, sentences: List[Sentence]) -> List[ParsedSentence]:
        """Sentences in one model call, sorted by length (less padding), returned in input order."""
        if not sentences:
            return []
        for words, _, _ in sentences:
            self._check(words)
        order = sorted(range(len(sentences)), key=lambda i: len(sentences[i][0]))
        batch = [sentences[i] for i in order]
        feed = self.inputs.feed([words for words, _, _ in batch], [upos for _, upos, _ in batch])
        results = self.session.run(self._outputs, feed)
        extra = results[len(results) - len(self._extra) :] if self._extra else []
        parsed = self._decode(batch, *results[: len(results) - len(self._extra)])
        for b, sentence in enumerate(parsed):
            self._fill_extra_columns(sentence, [tags[b] for tags in extra])
        restored: List[Optional[ParsedSentence]] = [None] * len(sentences)
        for position, index in enumerate(order):
            restored[index] = parsed[position]
        return restored  # type: ignore[return-value]

    # --------------------------------------------------------------- decoding
    def _decode(
        self,
        batch: List[Sentence],
        arc_scores: np.ndarray,
        greedy_labels: np.ndarray,
        label_dep: np.ndarray,
        label_head: np.ndarray,
        upos_tags: Optional[np.ndarray] = None,
    ) -> List[ParsedSentence]:
        parsed = []
        for b, (words, upos, text) in enumerate(batch):
            n = len(words)
            heads = decode_sentence(arc_scores[b], n)
            labels = greedy_labels[b, 1 : n + 1].copy()
            greedy_heads = arc_scores[b, 1 : n + 1].argmax(-1)
            # scored again: words the tree moved, and (UD: `root` exactly on ROOT's child) words
            # off ROOT whose best label was `root`, as `nn.tree_decoding.root_consistent_labels`
            redo = heads != greedy_heads
            if self._root_label is not None:
                redo |= (labels == self._root_label) & (heads != 0)
            rescored = np.nonzero(redo)[0]
            if rescored.size:
                scores = self._label_scores(label_dep[b, rescored + 1], label_head[b, heads[rescored]])
                if self._root_label is not None:
                    scores[:, self._root_label] = -np.inf
                labels[rescored] = scores.argmax(-1)
            if self._root_label is not None:
                labels[heads == 0] = self._root_label
            if upos_tags is not None and self.upos_labels is not None:
                upos = [self.upos_labels[t] for t in upos_tags[b, :n].tolist()]
            parsed.append(
                ParsedSentence(
                    words=list(words),
                    heads=[int(h) for h in heads],
                    deprels=[self.deprels[t] for t in labels.tolist()],
                    upos=upos,
                    text=text,
                )
            )
        return parsed

    def _fill_extra_columns(self, sentence: ParsedSentence, tags: List[np.ndarray]) -> None:
        """LEMMA / FEATS / XPOS of one sentence from the extra heads' best classes (padded rows)."""
        n = len(sentence.words)
        for (field, labels), row in zip(self._extra, tags):
            values = [labels[t] for t in row[:n].tolist()]
            if field == "lemma_rules":
                sentence.lemmas = apply_rules(sentence.words, values)
            elif field == "feats":
                sentence.feats = values
            else:
                sentence.xpos = values

    def _label_scores(self, dep: np.ndarray, head: np.ndarray) -> np.ndarray:
        """The label biaffine for aligned (dependent, head) pairs: (k, d), (k, d) -> (k, labels)."""
        weight = self.label_weight()
        if self._bias_x:
            dep = np.concatenate([dep, np.ones((dep.shape[0], 1), dtype=dep.dtype)], axis=-1)
        if self._bias_y:
            head = np.concatenate([head, np.ones((head.shape[0], 1), dtype=head.dtype)], axis=-1)
        return np.einsum("ki,oij,kj->ko", dep, weight, head)

    def label_weight(self) -> np.ndarray:
        """The label biaffine's weight (labels, d+1, d+1), read once from the graph on a dummy input."""
        if self._label_weight is None:
            upos = [["X"]] if self.inputs.needs_upos else [None]
            feed = self.inputs.feed([["x"]], upos)
            self._label_weight = self.session.run([self.meta["outputs"]["label_weight"]], feed)[0]
        return self._label_weight
