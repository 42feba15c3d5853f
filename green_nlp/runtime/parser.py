"""The biaffine dependency parser on onnxruntime: the `green_dependency_parser` predictor's answers
without torch or allennlp.

The graph (`green_nlp.export.parser`) gives arc scores, each word's best label for its greedy head
and the label MLP outputs; here the heads are decoded (greedy when a tree, else the maximum
spanning tree, `parser_decoding`) and words whose head the tree changed get their label scored
again in numpy with the exported label biaffine weight, as the model scores labels at its decoded
heads. A folder exported from a model with the LEMMA / FEATS / XPOS heads also gives each word's
lemma edit script (applied to the word here, `lemma_rules`), UFeats string and XPOS tag.
"""

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice, repeat
from pathlib import Path
from typing import Any, NamedTuple, Optional, Union

import numpy as np

from green_nlp.runtime.errors import InputError, InputFailure, InputKindError, InputTypeError, ModelFolderError
from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.input_checks import (
    SentenceLimited,
    check_many,
    check_text,
    check_tokens,
)
from green_nlp.runtime.lemma_choice import from_folder as attested_words_of
from green_nlp.runtime.lemma_lexicon import from_folder
from green_nlp.runtime.lemma_rules import predicted_lemma
from green_nlp.runtime.length_batches import DEFAULT_SORT_WINDOW, by_length, check_batching, split_windows, windows
from green_nlp.runtime.parser_decoding import ROOT_RELATION, greedy_trees, single_root_mst
from green_nlp.runtime.parser_inputs import ParserInputs, model_calls
from green_nlp.runtime.parser_results import ParsedDoc, ParsedSentence
from green_nlp.runtime.parser_segmenter import TextSegmenter
from green_nlp.runtime.treebank_tokenization import from_folder as tokenization_rules
from green_nlp.runtime.universal_pos import first_unknown_tag, unknown_tag_problem

# the optional heads' output names in a folder's metadata, in graph order, and the record key each fills
EXTRA_OUTPUTS = {"lemma_rules": "lemmas", "feats": "feats", "xpos": "xpos"}

LEMMA_CACHE_SIZE = 100_000  # (form, UPOS, script) -> lemma entries kept (a few MB at most)
# graph calls whose outputs may wait to be decoded (`_parse_grouped`), and their bytes: 8 ordinary
# calls hold about 3 MB; one call of very long sentences alone can pass the byte bound (its arc
# scores, up to about 130 MB at `model_calls`' budget) and is then decoded at once
GRAPH_RUNS_BEFORE_DECODING = 8
PENDING_OUTPUT_BYTES = 1 << 25

_UNSEEN: Any = object()  # a cache's miss, where None is a value

# one sentence to parse: (words, UPOS tags or None, sentence text or None)
Sentence = tuple[list[str], Optional[list[str]], Optional[str]]


class GraphRun(NamedTuple):
    """One graph call: where each sentence's tree goes, the sentences in call order, the outputs."""

    places: list[int]
    sentences: list[Sentence]
    results: list[np.ndarray]


def _pair(item: Any) -> tuple[Any, Any]:
    """(words, upos) from one item of `parse_sentences`, or an InputTypeError saying what it needs."""
    if isinstance(item, str) or not isinstance(item, (tuple, list)) or len(item) != 2:
        raise InputTypeError("sentence", "must be a (words, upos or None) pair")
    return item[0], item[1]


class ParserRuntime(SentenceLimited):
    """A loaded parser folder. Use `green_nlp.runtime.load(folder)` rather than this constructor."""

    family = "parser"

    def __init__(self, folder: Path, meta: dict[str, Any], session: Any) -> None:
        self.folder = Path(folder)
        self.meta = meta
        self.session = session
        self.inputs = ParserInputs(meta["inputs"])
        outputs = meta["outputs"]
        self._outputs = [outputs["arc_scores"], outputs["greedy_labels"], outputs["label_dep"], outputs["label_head"]]
        if outputs.get("upos"):
            self._outputs.append(outputs["upos"])
        # a split folder's lemma head is a graph of its own (`export.lemma_head_split`), run by
        # `_head_lemmas` on the words the dictionary lacks; the main graph gives their states instead
        head = meta.get("lemma_head")
        self._head_states: Optional[str] = head["states"] if isinstance(head, dict) else None
        self._lemma_head: Optional[Any] = None  # its session (`load_parts`)
        # (metadata key, its class labels) of each extra head the main graph gives, after UPOS in this order
        self._extra: list[tuple[str, list[str]]] = [
            (field, list(meta["labels"][field]))
            for field in EXTRA_OUTPUTS
            if outputs.get(field) and not (field == "lemma_rules" and self._head_states)
        ]
        self._outputs += [outputs[field] for field, _ in self._extra]
        self.lemma_lexicon = from_folder(self.folder, meta)  # (form, UPOS) -> lemma, before the scripts
        # a lemma that is a word where the best script's is not (`lemma_choice`): the folder's word
        # list and the graph's top scripts, fetched last; both or neither
        self.attested_words = attested_words_of(self.folder, meta)
        self._lemma_top = bool(self.attested_words is not None and outputs.get("lemma_rules_top"))
        self._lemma_labels: list[str] = list(meta["labels"].get("lemma_rules") or []) if self._lemma_top else []
        top_outputs = [outputs["lemma_rules_top"], outputs["lemma_rules_top_logits"]] if self._lemma_top else []
        if self._head_states:
            self._outputs.append(self._head_states)
            self._head_outputs = [outputs["lemma_rules"], *top_outputs]
            self._rule_labels: list[str] = list(meta["labels"]["lemma_rules"])
        else:
            self._outputs += top_outputs
        # (form, UPOS, script) -> (lemma, whether it stands: the dictionary's, or `attested_words.settled`)
        self._lemma_cache: dict[tuple[str, Optional[str], str], tuple[str, bool]] = {}
        # a split folder's (form, UPOS) -> the dictionary's lemma or None (the head's script decides)
        self._dictionary_cache: dict[tuple[str, Optional[str]], Optional[str]] = {}
        self.deprels: list[str] = meta["labels"]["deprel"]
        has_root = ROOT_RELATION in self.deprels and len(self.deprels) > 1
        self._root_label: Optional[int] = self.deprels.index(ROOT_RELATION) if has_root else None
        self.upos_labels: Optional[list[str]] = meta["labels"].get("upos")
        self._max_sentence_length = int(meta.get("max_sentence_length", 1000))  # checked by folder_schema
        self.segmenter = TextSegmenter(
            meta.get("tokenizer", {}).get("language", "en"),
            rules=tokenization_rules(self.folder, meta),
            folder=self.folder,
        )
        scorer = meta.get("label_scorer", {})
        self._bias_x, self._bias_y = bool(scorer.get("bias_x", True)), bool(scorer.get("bias_y", True))
        self._label_weight: Optional[np.ndarray] = None
        self.character_vectors: Optional[Any] = None  # a split folder's (`load_parts`)

    def load_parts(self, graph: Path, threads: Optional[int]) -> None:
        """A split folder's other graphs at `graph`'s precision: its character encoder
        (`export.character_split`) and lemma head (`export.lemma_head_split`); `load` calls this
        once the main graph is loaded. Nothing for a folder of one graph."""
        from green_nlp.runtime import create_session
        from green_nlp.runtime.model_folder import companion_graphs

        parts = companion_graphs(self.folder, self.meta, graph)
        chars = self.meta["inputs"].get("characters") or {}
        encoder = chars.get("encoder")
        if "characters" in parts and encoder and self.inputs.vectors_input is not None:
            from green_nlp.runtime.character_vectors import CharacterVectors

            session = create_session(parts["characters"], threads)
            self._check_part(
                session, parts["characters"], {chars.get("input")}, [encoder.get("output")], "inputs.characters"
            )
            self.character_vectors = CharacterVectors(session, chars["input"], encoder["output"], self.inputs)
            self.inputs.vectors = self.character_vectors
        if "lemma_head" in parts and self._head_states:
            session = create_session(parts["lemma_head"], threads)
            self._check_part(session, parts["lemma_head"], {self._head_states}, self._head_outputs, "lemma_head")
            self._lemma_head = session

    def _check_part(self, session: Any, path: Path, inputs: set[Any], outputs: list[Any], key: str) -> None:
        """Refuse a companion graph whose inputs and outputs are not what the metadata names."""
        given, gives = {i.name for i in session.get_inputs()}, {o.name for o in session.get_outputs()}
        if given != inputs or not set(outputs) <= gives:
            raise ModelFolderError(
                f"{self.folder}: {path.name} takes {sorted(given)} and gives {sorted(gives)}, not what {META_FILE} "
                f"key {key} names; re-export the model"
            )

    # ------------------------------------------------------------- public API
    def parse(self, text: str) -> ParsedDoc:
        """Raw text (one sentence or a paragraph) -> its sentences, each a tree. A text the model
        cannot take (empty, holding a NUL or a lone surrogate, a sentence over `max_sentence_length`
        words) raises `InputError` saying why; a leading byte-order mark is dropped."""
        self._check_raw_text_model()
        doc = next(self._parse_grouped([self._text_sentences(text)]))
        assert isinstance(doc, ParsedDoc)
        return doc

    def parse_many(
        self, lines: Iterable[str], batch_size: int = 32, sort_window: int = DEFAULT_SORT_WINDOW
    ) -> Iterator[Union[ParsedDoc, InputFailure]]:
        """One `ParsedDoc` per input text, in input order. Streams: `sort_window` texts are read at
        a time, their sentences sorted by length and parsed `batch_size` per model call (less
        padding, see `length_batches`; `sort_window=batch_size` batches a one-sentence-per-line
        file in file order). A text the model cannot take (see `parse`) gives an `InputFailure` in
        its place, its error naming it by its 0-based index (`texts[2] ...`); the other texts of its
        window are parsed as they would be without it."""
        check_many("texts", lines)
        check_batching(batch_size, sort_window)
        self._check_raw_text_model()
        for groups in split_windows(lines, sort_window, self._text_sentences):
            yield from self._parse_grouped(groups, batch_size)

    def parse_tokens(self, words: Sequence[str], upos: Optional[Sequence[str]] = None) -> ParsedDoc:
        """One pre-tokenized sentence (with its UPOS tags when the model takes them), checked as
        the CLI checks a `{"words": [...], "upos": [...]}` line: `InputError` for a list that is
        empty, a word that is empty or holds a tab, line break or NUL, a string instead of a list,
        tags of the wrong number."""
        doc = next(self._parse_grouped([[self._sentence_input(words, upos)]]))
        assert isinstance(doc, ParsedDoc)
        return doc

    def parse_sentences(
        self,
        sentences: Iterable[tuple[Sequence[str], Optional[Sequence[str]]]],
        batch_size: int = 32,
        sort_window: int = DEFAULT_SORT_WINDOW,
    ) -> Iterator[Union[ParsedSentence, InputFailure]]:
        """Many pre-tokenized (words, UPOS or None) sentences, in input order; batched as
        `parse_many`, and as there a sentence the model cannot take (see `parse_tokens`) gives an
        `InputFailure` in its place (`sentences[4]: words[1] is empty or only whitespace`)."""
        check_many("sentences", sentences)
        check_batching(batch_size, sort_window)
        for number, chunk in enumerate(windows(sentences, sort_window)):
            groups: list[Union[list[Sentence], InputFailure]] = []
            for offset, item in enumerate(chunk):
                try:
                    groups.append([self._sentence_input(*_pair(item))])
                except InputError as error:
                    groups.append(InputFailure(error.at(number * sort_window + offset, "sentences")))
            for doc in self._parse_grouped(groups, batch_size):
                yield doc.sentences[0] if isinstance(doc, ParsedDoc) else doc

    # ----------------------------------------------------------------- checks
    def _check_raw_text_model(self) -> None:
        if self.inputs.needs_upos:
            raise InputKindError(
                "this parser was trained with gold UPOS input, which raw text does not have: give it "
                'tokens and tags (JSON lines {"words": [...], "upos": [...]}, or parse_tokens / '
                "parse_sentences in Python), or use a raw-text model"
            )

    def sentences_of(self, text: Any) -> list[tuple[str, list[str]]]:
        """(sentence text, words) of each sentence of a text, as `parse` splits it, or an
        InputError (subject `text`) for a text it cannot take (`green-nlp serve` batches these)."""
        text = check_text(text, "is empty: nothing to parse")
        sentences = self.segmenter.segment(text.strip())
        if not sentences:
            raise InputError("text", "has no words to parse")
        for number, (_, words) in enumerate(sentences, start=1):
            self.check_length(words, number)
        return sentences

    def _text_sentences(self, text: Any) -> list[Sentence]:
        return [(words, None, sentence) for sentence, words in self.sentences_of(text)]

    def _sentence_input(self, words: Any, upos: Any) -> Sentence:
        """A pre-tokenized sentence as the model takes it, or an InputError naming what is wrong."""
        words, tags = check_tokens(words, upos)
        self.check_length(words)
        vocab = self.inputs.upos
        if vocab is not None:
            if tags is None:
                raise InputError(
                    "upos",
                    "is missing: this parser was trained with UPOS input; give one tag per word "
                    "(parse_tokens(words, upos=...)), or use a model trained for raw text",
                )
            unknown = first_unknown_tag(tags, vocab.index, reads_unknown=vocab.oov is not None)
            if unknown is not None:
                raise InputError(f"upos[{unknown}]", unknown_tag_problem(tags[unknown], vocab.index))
        return words, tags, None

    # --------------------------------------------------------------- batching
    def _parse_grouped(
        self, groups: Sequence[Union[list[Sentence], InputFailure]], batch_size: int = 32
    ) -> Iterator[Union[ParsedDoc, InputFailure]]:
        """Every text's sentences, sorted by length across texts and parsed `batch_size` per call;
        a failure stays in its place. Up to `GRAPH_RUNS_BEFORE_DECODING` graph calls run back to
        back before their trees are decoded: Python's decoding between two calls pushed the graph's
        weights out of the CPU caches (end to end 2-4 % slower on EWT test, same answers)."""
        flat = [sentence for group in groups if not isinstance(group, InputFailure) for sentence in group]
        if self.character_vectors is not None:  # the window's new words in a few encoder calls, not per batch
            self.character_vectors.encode_ahead(["", *(word for words, _, _ in flat for word in words)])
        parsed: list[Optional[ParsedSentence]] = [None] * len(flat)
        pending: list[GraphRun] = []
        for batch in by_length([len(words) for words, _, _ in flat], batch_size):
            pending += self._run_graph([flat[i] for i in batch], batch)
            held = sum(array.nbytes for run in pending for array in run.results)
            if len(pending) >= GRAPH_RUNS_BEFORE_DECODING or held >= PENDING_OUTPUT_BYTES:
                self._decode_runs(pending, parsed)
        self._decode_runs(pending, parsed)
        trees = iter(parsed)
        for group in groups:
            if isinstance(group, InputFailure):
                yield group
            else:
                yield ParsedDoc(list(islice(trees, len(group))))  # type: ignore[arg-type]

    def _check(self, words: list[str]) -> None:
        """The last guard before the model (the public calls check their inputs first)."""
        if not words:
            raise ValueError("no tokens to parse")
        self.check_length(words)

    def _run_graph(self, sentences: list[Sentence], places: Sequence[int]) -> list[GraphRun]:
        """The graph's outputs for `sentences` (`places[i]`: where sentence i's tree goes), sorted by
        length (less padding); one call but for huge batches (`model_calls`)."""
        for words, _, _ in sentences:
            self._check(words)
        order = sorted(range(len(sentences)), key=lambda i: len(sentences[i][0]))
        batch = [sentences[i] for i in order]
        runs = []
        for run in model_calls([words for words, _, _ in batch]):
            part = [batch[i] for i in run]
            feed = self.inputs.feed([words for words, _, _ in part], [upos for _, upos, _ in part])
            runs.append(GraphRun([places[order[i]] for i in run], part, self.session.run(self._outputs, feed)))
        return runs

    def _decode_runs(self, runs: list[GraphRun], parsed: list[Optional[ParsedSentence]]) -> None:
        """Each run's trees into `parsed` at their places; `runs` is emptied."""
        for run in runs:
            results, states = run.results, None
            if self._head_states:  # a split lemma head: the main graph's last output is the words' states
                results, states = results[:-1], results[-1]
            fetched_top = self._lemma_top and states is None
            top, top_logits = results[-2:] if fetched_top else (None, None)
            results = results[:-2] if fetched_top else results
            extra = [tags.tolist() for tags in results[len(results) - len(self._extra) :]] if self._extra else []
            try:
                trees = self._decode(run.sentences, *results[: len(results) - len(self._extra)])
                for b, sentence in enumerate(trees):
                    unsettled = self._fill_extra_columns(sentence, [tags[b] for tags in extra])
                    if unsettled and top is not None and top_logits is not None:
                        self._choose_lemmas(sentence, unsettled, top[b], top_logits[b])
                if states is not None:
                    self._head_lemmas(trees, states)
            except IndexError:  # a class number past a label list: metadata and graph disagree
                raise ModelFolderError(
                    f"{self.folder}: the graph gives a class that {META_FILE} has no label for; its label "
                    "lists do not match the graph (re-export the model)"
                ) from None
            for place, sentence in zip(run.places, trees):
                self.mark_multiword_tokens(sentence)
                parsed[place] = sentence
        runs.clear()

    def mark_multiword_tokens(self, sentence: ParsedSentence) -> None:
        """Set the multiword tokens (`don't` over `do` + `n't`) that the folder's tokenizer rules
        find in a sentence parsed from its text; none without rules or text."""
        sentence.multiword_tokens = self.segmenter.multiword_tokens(sentence.text, sentence.words)

    # --------------------------------------------------------------- decoding
    def _decode(
        self,
        batch: list[Sentence],
        arc_scores: np.ndarray,
        greedy_labels: np.ndarray,
        label_dep: np.ndarray,
        label_head: np.ndarray,
        upos_tags: Optional[np.ndarray] = None,
    ) -> list[ParsedSentence]:
        lengths = np.array([len(words) for words, _, _ in batch])
        greedy, trees = greedy_trees(arc_scores, lengths)
        heads = greedy.copy()
        for b in np.flatnonzero(~trees).tolist():  # not a tree: the maximum spanning tree
            n = lengths[b]
            heads[b, :n] = single_root_mst(arc_scores[b, : n + 1, : n + 1])
        labels = greedy_labels[:, 1:].copy()
        # scored again: words the tree moved, and (UD: `root` exactly on ROOT's child) words
        # off ROOT whose best label was `root`, as `nn.tree_decoding.root_consistent_labels`
        inside = np.arange(heads.shape[1]) < lengths[:, None]
        redo = heads != greedy
        if self._root_label is not None:
            redo |= (labels == self._root_label) & (heads != 0)
        redo &= inside
        for b in np.flatnonzero(redo.any(axis=1)).tolist():  # one sentence at a time, as its scores always were
            rescored = np.nonzero(redo[b])[0]
            scores = self._label_scores(label_dep[b, rescored + 1], label_head[b, heads[b, rescored]])
            if self._root_label is not None:
                scores[:, self._root_label] = -np.inf
            labels[b, rescored] = scores.argmax(-1)
        if self._root_label is not None:
            labels[(heads == 0) & inside] = self._root_label
        head_rows, label_rows = heads.tolist(), labels.tolist()
        upos_rows = upos_tags.tolist() if upos_tags is not None and self.upos_labels is not None else None
        deprels, upos_labels = self.deprels, self.upos_labels
        parsed = []
        for b, (words, upos, text) in enumerate(batch):
            n = len(words)
            if upos_rows is not None and upos_labels is not None:
                upos = [upos_labels[t] for t in upos_rows[b][:n]]
            parsed.append(
                ParsedSentence(
                    words=list(words),
                    heads=head_rows[b][:n],
                    deprels=[deprels[t] for t in label_rows[b][:n]],
                    upos=upos,
                    text=text,
                )
            )
        return parsed

    def _fill_extra_columns(self, sentence: ParsedSentence, tags: list[list[int]]) -> list[int]:
        """LEMMA / FEATS / XPOS of one sentence from the extra heads' best classes (padded rows); the
        words whose lemma may yet be chosen (`_lemmas`)."""
        n = len(sentence.words)
        unsettled: list[int] = []
        for (field, labels), row in zip(self._extra, tags):
            values = [labels[t] for t in row[:n]]
            if field == "lemma_rules":
                sentence.lemmas, unsettled = self._lemmas(sentence.words, sentence.upos, values)
            elif field == "feats":
                sentence.feats = values
            else:
                sentence.xpos = values
        return unsettled

    def _lemmas(self, words: list[str], upos: Optional[list[str]], rules: list[str]) -> tuple[list[str], list[int]]:
        """One lemma per word: the folder's dictionary entry for (form, UPOS) where it has one, else the
        word's edit script applied; and the places of the script lemmas that are no word, which
        `_choose_lemmas` may replace. Memoized per (form, UPOS, script): most words of a text repeat,
        and applying each script afresh was most of the heads' cost after the model itself."""
        cache = self._lemma_cache
        if len(cache) > LEMMA_CACHE_SIZE:
            cache.clear()
        tags: Iterable[Optional[str]] = upos if upos is not None and self.lemma_lexicon is not None else repeat(None)
        lemmas, unsettled = [], []
        for k, key in enumerate(zip(words, tags, rules)):
            known = cache.get(key)
            if known is None:
                form, tag, rule = key
                found = self.lemma_lexicon.lookup(form, tag) if tag is not None else None  # type: ignore[union-attr]
                known = cache[key] = (found, True) if found is not None else self._scripted(form, rule)
            lemmas.append(known[0])
            if not known[1]:
                unsettled.append(k)
        return lemmas, unsettled

    def _head_lemmas(self, trees: list[ParsedSentence], states: np.ndarray) -> None:
        """A split folder's lemmas for one graph call's sentences: the dictionary's entry for (form,
        UPOS) where it has one, else the word's best edit script from the lemma head graph, run once
        on the states of just those words. The same lemmas as the head inside the main graph gives
        (`_lemmas`, `_choose_lemmas`): a word's scripts do not depend on the other words."""
        lexicon, found = self.lemma_lexicon, self._dictionary_cache
        if len(found) > LEMMA_CACHE_SIZE:
            found.clear()
        places: list[tuple[int, int]] = []  # (sentence, word) of each word the dictionary lacks
        for b, sentence in enumerate(trees):
            tags: Iterable[Optional[str]] = (
                sentence.upos if sentence.upos is not None and lexicon is not None else repeat(None)
            )
            lemmas: list[str] = []
            for k, pair in enumerate(zip(sentence.words, tags)):
                entry: Optional[str] = found.get(pair, _UNSEEN)
                if entry is _UNSEEN:
                    form, tag = pair
                    entry = found[pair] = lexicon.lookup(form, tag) if tag is not None else None  # type: ignore[union-attr]
                if entry is None:
                    places.append((b, k))
                    entry = ""  # the script's lemma below
                lemmas.append(entry)
            sentence.lemmas = lemmas
        if not places:
            return
        rows, columns = np.array(places).T
        assert self._lemma_head is not None  # loaded with the folder's other graphs
        fetched = self._lemma_head.run(self._head_outputs, {self._head_states: states[rows, columns][None]})
        rules = fetched[0][0].tolist()
        top, top_logits = (fetched[1][0], fetched[2][0]) if self._lemma_top else (None, None)
        cache, labels = self._lemma_cache, self._rule_labels
        if len(cache) > LEMMA_CACHE_SIZE:
            cache.clear()
        for i, (b, k) in enumerate(places):  # as `_lemmas` and `_choose_lemmas` do for these words
            sentence = trees[b]
            form, rule = sentence.words[k], labels[rules[i]]
            key = (form, sentence.upos[k] if sentence.upos is not None and lexicon is not None else None, rule)
            known = cache.get(key)
            if known is None:
                known = cache[key] = self._scripted(form, rule)
            lemma = known[0]
            if not known[1] and top is not None and top_logits is not None:
                lemma = self._chosen(form, lemma, top[i], top_logits[i])
            sentence.lemmas[k] = lemma  # type: ignore[index]

    def _scripted(self, form: str, rule: str) -> tuple[str, bool]:
        """`form`'s lemma by edit script `rule`, and whether it stands: always without a word list
        to choose against, else where `attested_words.settled` says so."""
        lemma = predicted_lemma(form, rule)
        attested = self.attested_words if self._lemma_top else None
        return lemma, attested is None or attested.settled(form, lemma)

    def _chosen(self, form: str, lemma: str, top: np.ndarray, top_logits: np.ndarray) -> str:
        """The lemma `lemma_choice` picks for a word whose script lemma is no word, from the head's
        best scripts (`top`) and their logits."""
        assert self.attested_words is not None  # a lemma stands unless there is a word list (`_scripted`)
        labels = self._lemma_labels
        alternatives = [(labels[i], logit) for i, logit in zip(top.tolist(), top_logits.tolist())]
        return self.attested_words.choose(form, lemma, alternatives)

    def _choose_lemmas(
        self, sentence: ParsedSentence, unsettled: list[int], top: np.ndarray, top_logits: np.ndarray
    ) -> None:
        """Where a word's lemma came from its best script (not the dictionary) and is no word (the
        `unsettled` places), the next-best script that makes one (`lemma_choice`); as the AllenNLP
        model does."""
        lemmas = sentence.lemmas
        if self.attested_words is None or lemmas is None:
            return
        for k in unsettled:
            lemmas[k] = self._chosen(sentence.words[k], lemmas[k], top[k], top_logits[k])

    def _label_scores(self, dep: np.ndarray, head: np.ndarray) -> np.ndarray:
        """The label biaffine for aligned (dependent, head) pairs: (k, d), (k, d) -> (k, labels)."""
        weight = self.label_weight()
        if self._bias_x:
            dep = np.concatenate([dep, np.ones((dep.shape[0], 1), dtype=dep.dtype)], axis=-1)
        if self._bias_y:
            head = np.concatenate([head, np.ones((head.shape[0], 1), dtype=head.dtype)], axis=-1)
        # (dep @ W) then each pair's row dotted with its head: two BLAS products where a three-operand
        # einsum ran a plain C loop, many times slower (the graph scores its greedy labels in this order too)
        labels, width = weight.shape[0], weight.shape[2]
        by_dep = dep @ weight.transpose(1, 0, 2).reshape(weight.shape[1], labels * width)
        return np.matmul(by_dep.reshape(-1, labels, width), head[:, :, None])[:, :, 0]

    def label_weight(self) -> np.ndarray:
        """The label biaffine's weight (labels, d+1, d+1), read once from the graph on a dummy input."""
        if self._label_weight is None:
            upos = [["X"]] if self.inputs.needs_upos else [None]
            feed = self.inputs.feed([["x"]], upos)
            self._label_weight = self.session.run([self.meta["outputs"]["label_weight"]], feed)[0]
        return self._label_weight
