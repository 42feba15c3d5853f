"""AllenNLP reader for dependency trees in CoNLL-U (Universal Dependencies)."""

import logging
from collections.abc import Iterable, Iterator
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance, Token, TokenIndexer
from allennlp.data.fields import Field, MetadataField, SequenceLabelField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer

from green_nlp.data.folds import check_fold_settings, sentence_fold
from green_nlp.data.gold_label_field import GoldLabelField
from green_nlp.dataset_readers.conllu_sentences import ConlluFormatError, DependencySentence, read_conllu
from green_nlp.dataset_readers.long_sentences import LongSentenceWarning
from green_nlp.names import register_with_old_names
from green_nlp.runtime.lemma_rules import make_rules

logger = logging.getLogger(__name__)

UPOS_NAMESPACE = "upos"
DEPREL_NAMESPACE = "deprel_labels"  # "*labels": no padding or OOV entry
# the optional UD columns a parser may also predict: reader option, field and namespace
LEMMA_RULE_NAMESPACE = "lemma_rule_labels"
FEATS_NAMESPACE = "feats_labels"
XPOS_NAMESPACE = "xpos_labels"
EXTRA_COLUMNS = {"lemmas": LEMMA_RULE_NAMESPACE, "feats": FEATS_NAMESPACE, "xpos": XPOS_NAMESPACE}
FIELD_NAMES = ("green_nlp", "allennlp_models")
# allennlp-models' `universal_dependencies` reader, which its `biaffine_parser` is written for
MODELS_POS_FIELD = "pos_tags"
MODELS_POS_NAMESPACE = "pos"
MODELS_DEPREL_NAMESPACE = "head_tags"


@register_with_old_names(DatasetReader, "green_conllu_dependencies")  # first name: conllu_dependencies
class ConlluDependenciesReader(DatasetReader):
    """
    Reads words, UPOS, heads and relations from CoNLL-U; multiword tokens and empty nodes are
    not words of UD's basic trees: the syntactic words are read, multiword-token lines are kept in
    the `sentence` metadata (the predictor writes them back), empty nodes are dropped.

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional
        How words become ids. Add a `token_characters` indexer for character features.
    use_gold_upos : `bool`, optional (default = `True`)
        Emit the file's UPOS column as the `upos` field (input features and/or tagging targets).
        Set to `False` for a parser that must work from raw text.
    max_sentence_length : `int`, optional
        Sentences longer than this are skipped (with a count in the log) - useful to bound the
        n^2 memory of training batches. `None` keeps every sentence. A file with no sentence left
        (all too long, malformed or left out) is an error naming the causes, not an empty dataset.
    cross_fit_folds, leave_out_fold : `int`, optional
        Read every sentence except those of fold `leave_out_fold` of `cross_fit_folds` (see
        `green_nlp.data.folds`): the training data of one cross-fitting teacher, which then gives
        distillation targets only for the fold it never saw. Set both or neither.
    field_names : `str`, optional (default = `"green_nlp"`)
        `"green_nlp"`: the fields `green_biaffine_parser` takes (`upos` in namespace `upos`,
        `head_tags` in `deprel_labels`; relations the vocabulary lacks are scored as wrong labels).
        `"allennlp_models"`: those of allennlp-models' `universal_dependencies` reader, so this
        reader (with its error messages, multiword handling and folds) can feed allennlp-models'
        own `biaffine_parser`: `pos_tags` in namespace `pos`, `head_tags` in `head_tags`, metadata
        `words` and `pos`. That model needs the POS column, so `use_gold_upos` must stay true, and
        like its own reader a relation outside the vocabulary is an error.
    skip_malformed : `bool`, optional (default = `False`)
        A malformed sentence is reported as `file:line: why` (a warning on stderr) and skipped,
        and reading goes on with the next sentence. Off by default: training and evaluation stop
        at the first malformed line. Meant for `allennlp predict --use-dataset-reader`, e.g.
        `-o '{"validation_dataset_reader.skip_malformed": true}'`.
    read_columns : `List[str]`, optional (default = `[]`)
        More gold columns to emit as tagging targets for a parser's extra heads: `"lemmas"` (as
        the edit script from form to lemma, `green_nlp.runtime.lemma_rules`, field `lemma_rules`),
        `"feats"` (the whole UFeats string, field `feats`) and `"xpos"` (field `xpos`). A gold
        value the vocabulary lacks is scored as wrong and left out of the loss, as for relations.
    """

    def __init__(
        self,
        token_indexers: Optional[dict[str, TokenIndexer]] = None,
        use_gold_upos: bool = True,
        max_sentence_length: Optional[int] = None,
        cross_fit_folds: Optional[int] = None,
        leave_out_fold: Optional[int] = None,
        field_names: str = "green_nlp",
        skip_malformed: bool = False,
        read_columns: Optional[list[str]] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        self._use_gold_upos = use_gold_upos
        if max_sentence_length is not None and max_sentence_length < 1:
            raise ValueError(f"max_sentence_length must be positive or null, got {max_sentence_length}")
        self._max_sentence_length = max_sentence_length
        check_fold_settings(cross_fit_folds, leave_out_fold)
        self._cross_fit_folds = cross_fit_folds
        self._leave_out_fold = leave_out_fold
        if field_names not in FIELD_NAMES:
            raise ConfigurationError(f"field_names must be one of {FIELD_NAMES}, got {field_names!r}")
        if field_names == "allennlp_models" and not use_gold_upos:
            raise ConfigurationError(
                "allennlp-models' biaffine_parser needs the POS column (pos_tags): "
                "field_names 'allennlp_models' needs use_gold_upos true"
            )
        self._field_names = field_names
        self._skip_malformed = skip_malformed
        self._read_columns = list(read_columns or [])
        unknown = [column for column in self._read_columns if column not in EXTRA_COLUMNS]
        if unknown:
            raise ConfigurationError(f"read_columns may hold {sorted(EXTRA_COLUMNS)}, got {unknown}")
        if self._read_columns and field_names != "green_nlp":
            raise ConfigurationError(
                "read_columns needs field_names 'green_nlp' (allennlp-models' parser has no such heads)"
            )
        self.malformed: list[str] = []  # with skip_malformed: the `file:line: why` of each skipped sentence

    def _report_malformed(self, error: ConlluFormatError) -> None:
        self.malformed.append(str(error))
        logger.warning("skipped a malformed sentence: %s", error)

    def _read(self, file_path: str) -> Iterable[Instance]:
        long_sentences = LongSentenceWarning(
            "set dataset_reader.max_sentence_length (validation_dataset_reader for evaluate and predict) to skip "
            """longer ones, e.g. -o '{"validation_dataset_reader.max_sentence_length": 300}'"""
        )
        trees: Optional[bool] = None  # whether the file's sentences have trees (HEAD given), from its first
        for sentence in self.shard_iterable(self._kept_sentences(file_path)):
            trees = self._check_trees(trees, sentence, file_path)
            long_sentences.check(len(sentence.words), f"{file_path}:{sentence.first_line}", self._max_sentence_length)
            yield self.sentence_to_instance(sentence)

    def _kept_sentences(self, file_path: str) -> Iterator[DependencySentence]:
        """The file's sentences less those left out (fold), too long or malformed (`skip_malformed`),
        filtered before sharding so that the counts are the whole file's. A file with none left is an
        error once it is read: training on nothing used to "succeed" with only a warning in the log."""
        skipped = left_out = kept = 0
        malformed: list[str] = []

        def on_malformed(error: ConlluFormatError) -> None:
            malformed.append(str(error))
            self._report_malformed(error)

        for sentence in read_conllu(file_path, on_error=on_malformed if self._skip_malformed else None):
            if (
                self._cross_fit_folds is not None
                and sentence_fold(sentence.words, self._cross_fit_folds) == self._leave_out_fold
            ):
                left_out += 1
            elif self._max_sentence_length is not None and len(sentence.words) > self._max_sentence_length:
                skipped += 1
            else:
                kept += 1
                yield sentence
        if skipped:
            logger.warning(
                "%s: skipped %d sentences longer than %d words", file_path, skipped, self._max_sentence_length
            )
        if left_out:
            logger.info(
                "%s: left out the %d sentences of fold %d of %d",
                file_path,
                left_out,
                self._leave_out_fold,
                self._cross_fit_folds,
            )
        if not kept:
            raise ConfigurationError(self._nothing_left(file_path, skipped, left_out, malformed))

    def _nothing_left(self, file_path: str, skipped: int, left_out: int, malformed: list[str]) -> str:
        """Why no sentence of `file_path` is left, each cause with the setting that made it."""
        why = []
        if skipped:
            why.append(
                f"{skipped} longer than max_sentence_length {self._max_sentence_length} (raise "
                "dataset_reader.max_sentence_length, or validation_dataset_reader's for evaluate and predict; "
                "null keeps every sentence)"
            )
        if malformed:
            why.append(f"{len(malformed)} malformed, skipped by skip_malformed (the first: {malformed[0]})")
        if left_out:
            why.append(
                f"{left_out} in fold {self._leave_out_fold} of {self._cross_fit_folds}, left out by leave_out_fold"
            )
        return f"no sentences are left in {file_path} after filtering: " + "; ".join(why)

    @staticmethod
    def _check_trees(trees: Optional[bool], sentence: DependencySentence, file_path: str) -> bool:
        """Whether this file's sentences have trees, refusing a sentence that differs from the first:
        instances with and without gold heads cannot share a batch (AllenNLP's "non-homogeneous
        Instances" error, naming neither file nor line), and a file without any is parsed only."""
        has = sentence.heads is not None
        if trees is not None and has != trees:
            this, first = ("has a tree", "has none") if has else ("has no tree (HEAD _)", "has one")
            raise ConlluFormatError(
                f"{file_path}:{sentence.first_line}: this sentence {this} but the file's first sentence "
                f"{first}: give every sentence of a file its HEAD and DEPREL (to train or evaluate), or none (to parse)"
            )
        return has

    def sentence_to_instance(self, sentence: DependencySentence) -> Instance:
        return self.text_to_instance(
            sentence.words,
            sentence.upos if self._use_gold_upos else None,
            sentence.heads,
            sentence.deprels,
            extra_metadata={"sentence": sentence},
            **self._extra_columns(sentence),
        )

    def _extra_columns(self, sentence: DependencySentence) -> dict[str, list[str]]:
        """The `read_columns` of one sentence, lemmas as edit scripts."""
        columns: dict[str, list[str]] = {}
        if "lemmas" in self._read_columns:
            columns["lemmas"] = make_rules(sentence.words, sentence.lemmas)
        if "feats" in self._read_columns:
            columns["feats"] = list(sentence.feats)
        if "xpos" in self._read_columns:
            columns["xpos"] = list(sentence.xpos)
        return columns

    def text_to_instance(
        self,
        words: list[str],
        upos: Optional[list[str]] = None,
        heads: Optional[list[int]] = None,
        deprels: Optional[list[str]] = None,
        extra_metadata: Optional[dict[str, Any]] = None,
        lemmas: Optional[list[str]] = None,
        feats: Optional[list[str]] = None,
        xpos: Optional[list[str]] = None,
    ) -> Instance:
        """`lemmas` are edit scripts (`lemma_rules.make_rule`), not lemmas: the targets of a parser's
        lemma head."""
        if not words:
            raise ValueError("cannot parse an empty sentence")
        text_field = TextField([Token(word) for word in words])
        fields: dict[str, Field] = {"words": text_field}
        if self._field_names == "allennlp_models":
            fields.update(self._allennlp_models_fields(text_field, upos, heads, deprels))
            metadata: dict[str, Any] = {"words": words, "pos": upos}
        else:
            if upos is not None:
                fields["upos"] = SequenceLabelField(upos, text_field, label_namespace=UPOS_NAMESPACE)
            if heads is not None and deprels is not None:
                fields["head_indices"] = SequenceLabelField(heads, text_field, label_namespace="head_index_tags")
                fields["head_tags"] = GoldLabelField(deprels, text_field, label_namespace=DEPREL_NAMESPACE)
            for name, values in (("lemma_rules", lemmas), ("feats", feats), ("xpos", xpos)):
                if values is not None:
                    namespace = EXTRA_COLUMNS["lemmas" if name == "lemma_rules" else name]
                    fields[name] = GoldLabelField(values, text_field, label_namespace=namespace)
            metadata = {"words": words, "upos": upos}
        metadata.update(extra_metadata or {})
        fields["metadata"] = MetadataField(metadata)
        return Instance(fields)

    @staticmethod
    def _allennlp_models_fields(
        text_field: TextField, upos: Optional[list[str]], heads: Optional[list[int]], deprels: Optional[list[str]]
    ) -> dict[str, Field]:
        """The label fields of allennlp-models' `universal_dependencies` reader, by its names."""
        if upos is None:
            raise ValueError("allennlp-models' biaffine_parser needs POS tags for every sentence")
        fields: dict[str, Field] = {
            MODELS_POS_FIELD: SequenceLabelField(upos, text_field, label_namespace=MODELS_POS_NAMESPACE)
        }
        if heads is not None and deprels is not None:
            fields["head_tags"] = SequenceLabelField(deprels, text_field, label_namespace=MODELS_DEPREL_NAMESPACE)
            fields["head_indices"] = SequenceLabelField(heads, text_field, label_namespace="head_index_tags")
        return fields

    def apply_token_indexers(self, instance: Instance) -> None:
        instance.fields["words"].token_indexers = self._token_indexers  # type: ignore
