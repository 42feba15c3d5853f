"""Gold treebank sentences mixed with silver ones: raw text parsed once by a teacher (a parser cache
of `allennlp green-label-teacher`), for students that learn from both."""

import glob
import itertools
import logging
from collections.abc import Iterable, Iterator
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import Field, TextField

from green_nlp.data.gold_label_field import GoldLabelField
from green_nlp.data.teacher_cache import SilverSentence, TeacherCacheError, file_sha256, read_parser_cache
from green_nlp.dataset_readers.conllu_dependencies import EXTRA_COLUMNS, ConlluDependenciesReader

logger = logging.getLogger(__name__)

SILVER_TARGETS = ("soft", "hard")
# The gold index of a word that has no gold tag: the loss and the accuracy leave it out (as they do
# UNSEEN_LABEL), and an index is not a label, so no vocabulary counts it.
NO_GOLD = -1


@DatasetReader.register("green_gold_silver_dependencies")
class GoldSilverDependenciesReader(ConlluDependenciesReader):
    """
    The CoNLL-U reader's gold sentences (its `file_path`) plus the first `silver_sentences` sentences
    of the parser caches `silver_caches`, in that order. A silver instance has the gold instance's
    fields, filled with the teacher's 1-best tree and UPOS, so that gold and silver share batches.

    # Parameters

    silver_caches : `List[str]`, optional (default = `[]`)
        Parser caches (`allennlp green-label-teacher` on raw text), read in order. An entry may be a
        glob pattern (e.g. the `--shard` outputs `imdb.shard*.jsonl`): its files are read in sorted
        order, and a pattern that matches nothing is an error.
    silver_sentences : `int`, optional (default = `0`)
        How many silver sentences to read; 0 reads gold only. Asking for more than the caches hold
        is an error (a baseline must see the silver sentences it is compared on).
    gold_share : `float`, optional (default = `None`)
        The mixing ratio: the share of gold sentences among the sentences read, reached by
        repeating the gold set (at least once, a whole number of times). `None`: each gold sentence
        once, so the ratio is what the sizes give.
    silver_targets : `str`, optional (default = `"soft"`)
        `"soft"`: each silver sentence carries the teacher's stored top-k distributions in its
        metadata (`"silver"`), which the `green_silver_distillation` callback trains on (KL only, no
        CE). `"hard"`: self-training; the 1-best trees are plain targets (CE, like gold), no
        distributions.
    teacher_archive : `str`, optional
        When given, every cache must come from this archive (its sha256), or reading stops.
    teacher_fingerprint : `str`, optional
        The same check without the archive at hand: a file holding the archive's sha256 (what
        `sha256sum` prints; scripts/teacher_silver.sh writes `model.tar.gz.sha256` beside it), for
        students trained where only the caches and the teacher's vocabulary were copied.

    With `read_columns` (the LEMMA / FEATS / XPOS heads), a silver instance carries those fields too,
    every word marked `NO_GOLD`: the teacher predicts none of them, so those heads learn from gold
    sentences only, while gold and silver still share batches.

    **kwargs : the `green_conllu_dependencies` reader's settings (token indexers, `use_gold_upos`, ...).
    """

    def __init__(
        self,
        silver_caches: Optional[list[str]] = None,
        silver_sentences: int = 0,
        gold_share: Optional[float] = None,
        silver_targets: str = "soft",
        teacher_archive: Optional[str] = None,
        teacher_fingerprint: Optional[str] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if silver_sentences < 0:
            raise ConfigurationError(f"silver_sentences must be >= 0, got {silver_sentences}")
        if silver_sentences and not silver_caches:
            raise ConfigurationError(f"silver_sentences is {silver_sentences} but no silver_caches are given")
        if gold_share is not None and not 0.0 < gold_share < 1.0:
            raise ConfigurationError(f"gold_share must be between 0 and 1 (exclusive), or null; got {gold_share}")
        if teacher_archive is not None and teacher_fingerprint is not None:
            raise ConfigurationError("give teacher_archive or teacher_fingerprint, not both")
        if silver_targets not in SILVER_TARGETS:
            raise ConfigurationError(f"silver_targets must be one of {SILVER_TARGETS}, got {silver_targets!r}")
        self.silver_caches = list(silver_caches or [])
        self.silver_sentences = silver_sentences
        self.gold_share = gold_share
        self.silver_targets = silver_targets
        self.teacher_archive = teacher_archive
        self.teacher_fingerprint = teacher_fingerprint

    def _read(self, file_path: str) -> Iterable[Instance]:
        gold = list(super()._read(file_path))  # sharded by the parent
        silver = list(self.shard_iterable(self._silver()))
        if not gold:
            yield from silver
            return
        repeats = 1
        if self.gold_share is not None and silver:
            repeats = max(1, round(self.gold_share / (1.0 - self.gold_share) * len(silver) / len(gold)))
        logger.info(
            "%s: %d gold sentences x %d, %d silver sentences (%s targets)",
            file_path,
            len(gold),
            repeats,
            len(silver),
            self.silver_targets,
        )
        yield from _interleave(gold * repeats, silver)

    def _silver(self) -> Iterator[Instance]:
        if not self.silver_sentences:
            return
        sha = self._teacher_sha256()
        paths = _expand(self.silver_caches)
        sentences = itertools.chain.from_iterable(read_parser_cache(path, sha) for path in paths)
        count = 0
        for sentence in itertools.islice(sentences, self.silver_sentences):
            yield self.silver_instance(sentence)
            count += 1
        if count < self.silver_sentences:
            raise TeacherCacheError(
                f"silver_sentences is {self.silver_sentences} but the caches {paths} hold {count}; "
                "label more text or ask for fewer"
            )

    def silver_instance(self, sentence: SilverSentence) -> Instance:
        upos = None
        if self._use_gold_upos:
            if sentence.upos is None:
                raise ConfigurationError(
                    f"{sentence.source}: the silver cache has no UPOS tags (its teacher does not tag) but this "
                    "reader reads UPOS (use_gold_upos); use a teacher with a UPOS head"
                )
            upos = sentence.upos
        metadata = {"source": sentence.source}
        if self.silver_targets == "soft":
            metadata["silver"] = sentence.targets  # type: ignore[assignment]
        instance = self.text_to_instance(
            sentence.words, upos, sentence.heads, sentence.deprels, extra_metadata=metadata
        )
        words = instance.fields["words"]
        assert isinstance(words, TextField)
        for column in self._read_columns:
            field = "lemma_rules" if column == "lemmas" else column
            instance.add_field(field, _no_gold(words, EXTRA_COLUMNS[column]))
        return instance

    def _teacher_sha256(self) -> Optional[str]:
        if self.teacher_archive:
            return file_sha256(self.teacher_archive)
        if self.teacher_fingerprint:
            try:
                with open(self.teacher_fingerprint, encoding="utf-8") as handle:
                    words = handle.read().split()
            except OSError as error:
                raise ConfigurationError(f"teacher_fingerprint {self.teacher_fingerprint!r}: {error}") from error
            if not words or len(words[0]) != 64:
                raise ConfigurationError(
                    f"teacher_fingerprint {self.teacher_fingerprint!r} holds no sha256 (expected what sha256sum prints)"
                )
            return words[0].lower()
        return None


def _no_gold(words: TextField, namespace: str) -> Field:
    """A tag column with no gold tag on any word (indices, so no vocabulary counts them)."""
    return GoldLabelField([NO_GOLD] * len(words), words, label_namespace=namespace)


def _expand(patterns: list[str]) -> list[str]:
    """Each entry as itself, or, if it is a glob pattern, its files in sorted order."""
    paths: list[str] = []
    for pattern in patterns:
        if any(char in pattern for char in "*?["):
            matches = sorted(glob.glob(pattern))
            if not matches:
                raise TeacherCacheError(f"silver cache pattern {pattern!r} matches no file")
            paths.extend(matches)
        else:
            paths.append(pattern)
    return paths


def _interleave(first: list[Instance], second: list[Instance]) -> Iterator[Instance]:
    """Both lists, each in its order, spread evenly through one another."""
    total = len(first) + len(second)
    taken = 0
    for position in range(total):
        # take from `first` whenever it is behind its share of the positions so far
        if taken < len(first) and taken * total <= position * len(first):
            yield first[taken]
            taken += 1
        else:
            yield second[position - taken]
