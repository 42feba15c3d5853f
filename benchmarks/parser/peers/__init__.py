"""Peer parsers that are not AllenNLP models (SuPar), wrapped for the parser benchmarks."""
