"""Bad input through the real loaders and commands: is each case handled?

Every file in `tests/bad_inputs/` (README.md aside) has a row in `file_cases()` (a test checks
that), and `other_cases()` adds what is not a file (vocabularies that do not match, a pickled
payload in an archive, sentences at and over the length limit) and the same files through other
entry points. A case is *handled* when it ends in the documented outcome: either an error of a
clear type whose message names the problem (and, for a data file, the file and line), or a
documented recovery whose result is checked here. Anything else is *not handled*: another
exception (its innermost frame is recorded, so a raw traceback from deep inside torch shows up as
such), no error where one was due, or a wrong result.

Line-based inputs go through each entry point that reads them (`allennlp predict`,
`allennlp green-predict`, the runtime CLI `green-nlp parse|classify`, spaCy's `nlp.pipe`; see
`benchmarks.robustness.lines`): the record says which lines were kept and which reported, and the check
wants exactly the documented bad lines reported and every other line predicted, in order, as the
same model predicts it alone.

    python -m benchmarks.robustness.bad_input [--out benchmarks/results]

This module is the entry point; each job is a module of `benchmarks.robustness.cases` (case, loaders,
models, archives, checks, files, other, running, report).

Writes benchmarks/results/robustness.json (`{"cases": N, "handled": M, "by_entry_point": {...},
"details": [...]}`) and .md.
"""

import argparse
import json
import logging
import tempfile
from pathlib import Path

import torch

from benchmarks.common import REPO
from benchmarks.robustness import lines
from benchmarks.robustness.cases.case import NOT_CASES, Case
from benchmarks.robustness.cases.checks import is_tree
from benchmarks.robustness.cases.files import file_cases
from benchmarks.robustness.cases.report import by_entry_point, markdown
from benchmarks.robustness.cases.running import all_cases, run_case
from benchmarks.robustness.lines import BAD

__all__ = ["NOT_CASES", "Case", "all_cases", "file_cases", "is_tree", "lines", "main", "run_case"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the cases log their own warnings; the table says what happened
    torch.set_num_threads(1)
    present = {path.name for path in BAD.iterdir() if path.is_file()} - NOT_CASES
    with tempfile.TemporaryDirectory() as folder:
        cases = all_cases(Path(folder))
        details = [run_case(case) for name, case in cases.items() if case.file is None or case.file.name in present]
    uncovered = sorted(present - set(file_cases()))
    details += [
        {
            "case": name,
            "entry_point": "-",
            "file": f"tests/bad_inputs/{name}",
            "through": "-",
            "expected": "-",
            "handled": False,
            "outcome": "not covered by benchmarks.robustness.bad_input",
            "why_not_handled": "no case",
        }
        for name in uncovered
    ]
    results = {
        "cases": len(details),
        "handled": sum(d["handled"] for d in details),
        "by_entry_point": by_entry_point(details),
        "details": details,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "robustness.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    table = markdown(details)
    (args.out / "robustness.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
