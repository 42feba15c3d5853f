"""Bridges from green_nlp archives to other libraries' pipelines (spaCy)."""
from green_nlp.integrations import spacy_components  # noqa: F401  (registers the spaCy factories)
