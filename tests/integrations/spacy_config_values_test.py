"""Bad values in a green spaCy component's config are refused when the pipe is added, before a model loads."""

import pytest
import spacy

import green_nlp  # noqa: F401  (registers the spaCy factories)


@pytest.mark.parametrize("config", [{"model": "en-ewt-parser"}, {"archive": "no-such-archive.tar.gz"}])
@pytest.mark.parametrize("limit", [0, -5])
def test_a_non_positive_sentence_limit_is_refused(config, limit):
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match=f"green_nlp_parser: max_sentence_length must be positive, got {limit}"):
        nlp.add_pipe("green_nlp_parser", config={**config, "max_sentence_length": limit})
