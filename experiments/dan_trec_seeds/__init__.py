"""dan_trec_seeds study: see experiments/README.md."""
