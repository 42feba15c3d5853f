"""The parser studies' runs as variants.libsonnet defines them, for the script that trains them
(experiments/parser/run_ablations.sh) and the tests: which runs a treebank has, and which keep their own
epoch count. Evaluated with AllenNLP's Jsonnet binding and the environment as external variables, as
`allennlp train` reads a config.

    python -m experiments.parser.variants ud_wolof_wtb    # one line per run: <name> own|capped
"""

import argparse
import json
import os
from pathlib import Path
from typing import Any, Optional

import green_nlp  # noqa: F401  (exports GREEN_NLP_DATA and GREEN_NLP_MINILM, which the configs read)

VARIANTS = Path(__file__).resolve().with_name("variants.libsonnet")


def evaluate(expression: str, ext_vars: Optional[dict[str, str]] = None) -> Any:
    """`expression` over `variants` (the object variants.libsonnet defines), as JSON."""
    from _jsonnet import evaluate_snippet

    snippet = f"local variants = import {json.dumps(str(VARIANTS))};\n{expression}"
    return json.loads(evaluate_snippet("variants_query", snippet, ext_vars={**os.environ, **(ext_vars or {})}))


def ablation_names(treebank: str) -> list[str]:
    """The runs of `treebank` (without its prefix), in the order the script trains them."""
    names = evaluate("std.objectFields(variants.ablations)")
    return [name[len(treebank) + 1 :] for name in names if name.startswith(treebank + "_")]


def sets_own_epochs(treebank: str, name: str) -> bool:
    """Whether the run keeps its own epoch count (a training-budget run, the MiniLM teacher, the transfer set)."""
    return evaluate(f"std.objectHasAll(variants.ablations[{json.dumps(f'{treebank}_{name}')}], 'own_epochs')")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("treebank", help="e.g. ud_ewt, ud_wolof_wtb")
    args = parser.parse_args()
    for name in ablation_names(args.treebank):
        print(name, "own" if sets_own_epochs(args.treebank, name) else "capped")


if __name__ == "__main__":
    main()
