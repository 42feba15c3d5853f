"""Sparse distillation benchmarks: the MiniLM teacher against its n-gram DAN students."""
