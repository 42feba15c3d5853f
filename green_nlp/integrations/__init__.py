"""Bridges from green_nlp archives to other libraries' pipelines (spaCy).

Importing this package stays cheap: it declares the spaCy factories (`spacy_factories`, spaCy only);
the components themselves (`spacy_components`: torch, allennlp) load when a pipeline adds one.
"""

from green_nlp.integrations import spacy_factories  # noqa: F401  (registers the spaCy factory names)
