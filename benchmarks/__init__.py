"""The measurements behind README.md and docs/results.md, one subpackage per family, plus `common`
(paths, tables, hardware) and `reports` (document generators that only read the results).

Run a benchmark as a module from the repository root, e.g. `python -m benchmarks.parser.ewt --help`;
every one writes `benchmarks/results/<name>.json` and `.md`. Not part of the installed package.
"""
