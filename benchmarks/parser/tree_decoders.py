"""Speed of maximum-spanning-tree decoding alone: green_nlp's decoder (C++ Chu-Liu/Edmonds from
`ufal.chu_liu_edmonds` with an exact single-root constraint) against allennlp's `decode_mst`, on
the same random score matrices in the same run, one thread.

    python -m benchmarks.parser.tree_decoders [--sentences 2000] [--lengths 10 25 50]

Writes benchmarks/results/tree_decoders.json and .md.
"""

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from allennlp.nn.chu_liu_edmonds import decode_mst as allennlp_decode_mst

from benchmarks.common import hardware_description, write_results
from green_nlp.nn.tree_decoding import decode_mst, is_well_formed_tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--lengths", type=int, nargs="+", default=[10, 25, 50])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    rows = {}
    for n in args.lengths:
        matrices = [rng.normal(size=(n + 1, n + 1)) for _ in range(args.sentences)]
        start = time.perf_counter()
        ours = [decode_mst(m) for m in matrices]
        ours_seconds = time.perf_counter() - start
        start = time.perf_counter()
        # allennlp's layout is energy[head, dep]; it may return several roots.
        theirs = [allennlp_decode_mst(m.T.copy(), n + 1, has_labels=False)[0] for m in matrices]
        theirs_seconds = time.perf_counter() - start
        single_root = sum(is_well_formed_tree(list(h[1:])) for h in theirs) / len(theirs)
        assert all(is_well_formed_tree(h) for h in ours)
        rows[f"n={n}"] = {
            "green_nlp_sentences_per_s": round(args.sentences / ours_seconds, 1),
            "allennlp_sentences_per_s": round(args.sentences / theirs_seconds, 1),
            "speedup": round(theirs_seconds / ours_seconds, 2),
            "allennlp_single_root_share": round(single_root, 3),
        }
        print(
            f"n={n}: green_nlp {rows[f'n={n}']['green_nlp_sentences_per_s']:,} sent/s, "
            f"allennlp {rows[f'n={n}']['allennlp_sentences_per_s']:,} sent/s"
        )
    results = {
        "benchmark": "tree_decoders",
        "sentences": args.sentences,
        "threads": 1,
        "hardware": hardware_description(),
        "lengths": rows,
    }
    write_results(
        args.out,
        "tree_decoders",
        results,
        rows,
        list(next(iter(rows.values()))),
        note=f"{args.sentences} random score matrices per length; one thread; {hardware_description()}. "
        "green_nlp's trees always have one root; allennlp_single_root_share is how often "
        "allennlp's decode_mst output had exactly one.",
        first_column="sentence length",
    )


if __name__ == "__main__":
    main()
