"""The jobs of the bad-input benchmark (`python -m benchmarks.robustness.bad_input`), one module each."""
