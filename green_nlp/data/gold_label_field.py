"""Gold labels that may include ones the model's vocabulary has never seen.

AllenNLP's `SequenceLabelField` and `LabelField` raise a bare KeyError for a label outside a
`*labels` namespace, so `allennlp evaluate` on a newer treebank version (which can add relations
such as `nmod:desc`), on a tagging file with a tag the tagger never saw, or on a classification
file with a new class crashed. Here such a gold label becomes `UNSEEN_LABEL`: no prediction can
match it, so it counts as an error, and losses leave it out. One warning per label and namespace
names the label and, where the reader gave it, the `file:line` it was first met at.

Vocabulary creation is unchanged (`count_vocab_items` counts every label), so training on a file
adds its labels as before; a model that meets `UNSEEN_LABEL` while training raises
(`check_no_unseen_while_training`), as it cannot learn a class it has no output for.
"""

import logging
from collections.abc import Sequence
from typing import Optional, Union

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.data.fields import LabelField, SequenceField, SequenceLabelField

logger = logging.getLogger(__name__)

UNSEEN_LABEL = -1
_warned: set[tuple[str, str]] = set()


def index_gold_label(vocab: Vocabulary, namespace: str, label: str, source: Optional[str] = None) -> int:
    """The label's index in `namespace`, or `UNSEEN_LABEL` (with one warning per label) when the
    vocabulary lacks it."""
    lookup = vocab.get_token_to_index_vocabulary(namespace)
    index = lookup.get(label)
    if index is not None:
        return index
    if (namespace, label) not in _warned:
        _warned.add((namespace, label))
        where = f" (first at {source})" if source else ""
        logger.warning(
            "gold label %r%s is not among the model's %d %s; where gold labels are scored (evaluate) it counts as "
            "a wrong label and is left out of the loss, and predictions never read it",
            label,
            where,
            len(lookup),
            namespace,
        )
    return UNSEEN_LABEL


def check_no_unseen_while_training(model: torch.nn.Module, gold: torch.Tensor, what: str) -> None:
    """Training cannot use a gold label the vocabulary lacks: say so instead of failing inside torch."""
    if model.training and bool((gold == UNSEEN_LABEL).any()):
        raise ConfigurationError(
            f"a gold {what} in this batch is not in the model's vocabulary (the warning above names it and its "
            "file:line); training needs every gold label in the vocabulary: build the vocabulary from this "
            "data or extend it"
        )


class GoldLabelField(SequenceLabelField):
    """A `SequenceLabelField` that indexes unseen labels as `UNSEEN_LABEL` (warning once each).

    `sources`, optional: the `file:line` of each label, for the warning.
    """

    def __init__(
        self,
        labels: Union[list[str], list[int]],
        sequence_field: SequenceField,
        label_namespace: str = "labels",
        sources: Optional[Sequence[str]] = None,
    ) -> None:
        super().__init__(labels, sequence_field, label_namespace)
        self.sources = list(sources) if sources is not None else None

    def index(self, vocab: Vocabulary) -> None:
        if self._skip_indexing:
            return
        self._indexed_labels = [
            index_gold_label(vocab, self._label_namespace, str(label), self.sources[i] if self.sources else None)
            for i, label in enumerate(self.labels)
        ]


class GoldLabel(LabelField):
    """A `LabelField` that indexes an unseen label as `UNSEEN_LABEL` (warning once per label).

    `source`, optional: the label's `file:line`, for the warning.
    """

    def __init__(
        self,
        label: Union[str, int],
        label_namespace: str = "labels",
        skip_indexing: bool = False,
        source: Optional[str] = None,
    ) -> None:
        super().__init__(label, label_namespace, skip_indexing)
        self.source = source

    def index(self, vocab: Vocabulary) -> None:
        if not self._skip_indexing:
            self._label_id = index_gold_label(vocab, self._label_namespace, str(self.label), self.source)
