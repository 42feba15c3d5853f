"""Gold treebank sentences mixed with silver ones: raw text parsed once by a teacher (a parser cache
of `allennlp green-label-teacher`), for students that learn from both."""

import itertools
import logging
from collections.abc import Iterable, Iterator
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance

from green_nlp.data.teacher_cache import SilverSentence, TeacherCacheError, file_sha256, read_parser_cache
from green_nlp.dataset_readers.conllu_dependencies import ConlluDependenciesReader

logger = logging.getLogger(__name__)

SILVER_TARGETS = ("soft", "hard")


@DatasetReader.register("green_gold_silver_dependencies")
class GoldSilverDependenciesReader(ConlluDependenciesReader):
    """
    The CoNLL-U reader's gold sentences (its `file_path`) plus the first `silver_sentences` sentences
    of the parser caches `silver_caches`, in that order. A silver instance has the gold instance's
    fields, filled with the teacher's 1-best tree and UPOS, so that gold and silver share batches.

    # Parameters

    silver_caches : `List[str]`, optional (default = `[]`)
        Parser caches (`allennlp green-label-teacher` on raw text), read in order.
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
    **kwargs : the `green_conllu_dependencies` reader's settings (token indexers, `use_gold_upos`, ...).
    """

    def __init__(
        self,
        silver_caches: Optional[list[str]] = None,
        silver_sentences: int = 0,
        gold_share: Optional[float] = None,
        silver_targets: str = "soft",
        teacher_archive: Optional[str] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if silver_sentences < 0:
            raise ConfigurationError(f"silver_sentences must be >= 0, got {silver_sentences}")
        if silver_sentences and not silver_caches:
            raise ConfigurationError(f"silver_sentences is {silver_sentences} but no silver_caches are given")
        if gold_share is not None and not 0.0 < gold_share < 1.0:
            raise ConfigurationError(f"gold_share must be between 0 and 1 (exclusive), or null; got {gold_share}")
        if silver_targets not in SILVER_TARGETS:
            raise ConfigurationError(f"silver_targets must be one of {SILVER_TARGETS}, got {silver_targets!r}")
        self.silver_caches = list(silver_caches or [])
        self.silver_sentences = silver_sentences
        self.gold_share = gold_share
        self.silver_targets = silver_targets
        self.teacher_archive = teacher_archive

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
        sha = file_sha256(self.teacher_archive) if self.teacher_archive else None
        sentences = itertools.chain.from_iterable(read_parser_cache(path, sha) for path in self.silver_caches)
        count = 0
        for sentence in itertools.islice(sentences, self.silver_sentences):
            yield self.silver_instance(sentence)
            count += 1
        if count < self.silver_sentences:
            raise TeacherCacheError(
                f"silver_sentences is {self.silver_sentences} but the caches {self.silver_caches} hold {count}; "
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
        return self.text_to_instance(sentence.words, upos, sentence.heads, sentence.deprels, extra_metadata=metadata)


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
