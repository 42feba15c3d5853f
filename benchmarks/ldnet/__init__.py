"""LD-Net benchmarks: taggers without, with and with pruned language models."""
