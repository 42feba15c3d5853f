"""Dependency parser benchmarks: accuracy and speed on EWT, distilled students against their
teacher and peers, what distillation costs per training step, and tree decoding alone."""
