"""The jobs of the runtime benchmark (`python -m benchmarks.runtime.parser`), one module each."""
