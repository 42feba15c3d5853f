"""Gold labels that may include ones the model's vocabulary has never seen.

AllenNLP's `SequenceLabelField` raises a bare KeyError for a label outside a `*labels`
namespace, so `allennlp evaluate` on a newer treebank version (which can add relations such as
`nmod:desc`) crashed. Here such a gold label becomes `UNSEEN_LABEL`: no prediction can match it,
so it counts as a wrong label, and losses skip it.
"""
import logging
from typing import Set, Tuple

from allennlp.data import Vocabulary
from allennlp.data.fields import SequenceLabelField

logger = logging.getLogger(__name__)

UNSEEN_LABEL = -1
_warned: Set[Tuple[str, str]] = set()


class GoldLabelField(SequenceLabelField):
    """A `SequenceLabelField` that indexes unseen labels as `UNSEEN_LABEL` (warning once each)."""

    def index(self, vocab: Vocabulary) -> None:
        if self._skip_indexing:
            return
        lookup = vocab.get_token_to_index_vocabulary(self._label_namespace)
        indexed = []
        for label in self.labels:
            index = lookup.get(label)
            if index is None:
                index = UNSEEN_LABEL
                if (self._label_namespace, label) not in _warned:
                    _warned.add((self._label_namespace, label))
                    logger.warning("gold label %r is not among the model's %d %s; it is scored as a wrong "
                                   "label and left out of the label loss", label, len(lookup),
                                   self._label_namespace)
            indexed.append(index)
        self._indexed_labels = indexed
