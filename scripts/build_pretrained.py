"""Build a shipped model: train it on real data, export it, measure it, write its card.

    python scripts/build_pretrained.py en-ewt-parser        # teacher + students into runs/ where not trained yet
    python scripts/build_pretrained.py en-ewt-parser --archive STUDENT_ARCHIVE   # ship that student of the front
    python scripts/build_pretrained.py en-sst2-sentiment    # teacher, teacher labels, DAN, pruning
    python scripts/build_pretrained.py en-sst2-sentiment --archive DAN_ARCHIVE   # prune + export a trained DAN

Writes `pretrained/<name>/` (the ONNX graph, `green_model.json` and `README.md`, the model card)
and benchmarks/results/pretrained_<name>.{json,md}. Each model's recipe is in
scripts/pretrained_<family>.py; every figure on a card is measured by that recipe.
"""

import argparse
from pathlib import Path

import pretrained_parser
import pretrained_sentiment
from pretrained_common import rewrite_tables

MODELS = sorted([*pretrained_parser.SHIPPED, pretrained_sentiment.NAME])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=MODELS)
    parser.add_argument("--archive", type=Path, help="an archive already trained with the model's config")
    parser.add_argument(
        "--tables-only", action="store_true", help="only rewrite the Markdown table from the saved results JSON"
    )
    args = parser.parse_args()
    if args.name == pretrained_sentiment.NAME:
        if args.tables_only:
            rewrite_tables(args.name, pretrained_sentiment.results_markdown)
        else:
            pretrained_sentiment.build(args.archive)
    elif args.tables_only:
        rewrite_tables(args.name, pretrained_parser.results_markdown)
    else:
        pretrained_parser.build(pretrained_parser.SHIPPED[args.name], args.archive)


if __name__ == "__main__":
    main()
