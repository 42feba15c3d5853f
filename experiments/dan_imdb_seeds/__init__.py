"""dan_imdb_seeds study: see experiments/README.md."""
