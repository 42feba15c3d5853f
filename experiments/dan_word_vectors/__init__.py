"""dan_word_vectors study: see experiments/README.md."""
