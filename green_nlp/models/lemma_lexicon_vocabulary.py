"""A vocabulary built from the instances as usual, plus the (form, UPOS) -> lemma dictionary of the
training file (`green_nlp.runtime.lemma_lexicon`) as namespace `lemma_lexicon_labels`, so an archive
trained with the LEMMA head carries its dictionary with no extra step:

    "vocabulary": {"type": "green_lemma_lexicon", "lemma_lexicon_file": "<train.conllu>"}

(`lib.with_ud_heads(..., lemma_dictionary=true)` sets it to the config's training file). With
`directory`, the vocabulary extends the one saved there (AllenNLP's `extend`: its indices are kept,
the instances' new entries appended), as a student sharing its teacher's label indices needs. An
archive reloads it with the plain `from_files`, so loading needs nothing of this module.
"""

from collections.abc import Iterable
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.data import Instance, Vocabulary

from green_nlp.runtime.lemma_lexicon import MIN_SHARE, NAMESPACE, LemmaLexicon


def from_instances_with_lemma_lexicon(
    instances: Iterable[Instance],
    lemma_lexicon_file: str,
    lemma_lexicon_min_share: float = MIN_SHARE,
    directory: Optional[str] = None,
    **kwargs: Any,
) -> Vocabulary:
    """`Vocabulary.from_instances(instances, **kwargs)` (or, with `directory`, the saved vocabulary
    there extended by the instances) with the dictionary's lines added."""
    if not 0.0 <= lemma_lexicon_min_share <= 1.0:
        raise ConfigurationError(f"lemma_lexicon_min_share must be in [0, 1], got {lemma_lexicon_min_share}")
    try:
        lexicon = LemmaLexicon.from_conllu(lemma_lexicon_file, lemma_lexicon_min_share)
    except (OSError, ValueError) as error:
        raise ConfigurationError(f"vocabulary lemma_lexicon_file {lemma_lexicon_file!r}: {error}") from error
    if directory is not None:
        vocab = Vocabulary.from_files_and_instances(instances, directory, **kwargs)
    else:
        vocab = Vocabulary.from_instances(instances, **kwargs)
    vocab.add_tokens_to_namespace(lexicon.to_lines(), NAMESPACE)
    return vocab


class LemmaLexiconVocabulary(Vocabulary):
    """Registered as "green_lemma_lexicon"; see the module docstring."""

    @classmethod
    def from_instances_with_lemma_lexicon(
        cls,
        instances: Iterable[Instance],
        lemma_lexicon_file: str,
        lemma_lexicon_min_share: float = MIN_SHARE,
        directory: Optional[str] = None,
        **kwargs: Any,
    ) -> Vocabulary:
        return from_instances_with_lemma_lexicon(
            instances, lemma_lexicon_file, lemma_lexicon_min_share, directory, **kwargs
        )


Vocabulary.register("green_lemma_lexicon", constructor="from_instances_with_lemma_lexicon")(LemmaLexiconVocabulary)
