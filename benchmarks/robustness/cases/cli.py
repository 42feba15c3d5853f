"""The runtime CLI (`green-nlp parse|tag|classify|serve`) as a user types it, every command line of
the table run in one child process (`benchmarks.robustness.cli_driver`): a refusal is handled when the
exit status is 2 and stderr names the input and the problem with no traceback and nothing on
stdout; a file with bad lines when every line gets its record, in place, the bad ones an error
naming why."""

import functools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from benchmarks.common import REPO
from benchmarks.robustness.cases.case import RUNTIME, SERVER, SHIPPED_PARSER, Case, Outcome
from benchmarks.robustness.cases.folders import SHIPPED, _edit_meta, _graph_bytes, _set
from benchmarks.robustness.cases.models import tagger_folder
from benchmarks.robustness.cases.scrub import scrub
from benchmarks.robustness.cases.workspace import work_folder

SENTIMENT = "en-sst2-sentiment"
TAGGER_FOLDER = "{tagger folder}"
Result = dict[str, Any]  # {"status", "stdout", "stderr"}


@dataclass
class CliCase:
    name: str
    argv: list[str]
    expected: str
    check: Callable[[Result], tuple[bool, str]]
    stdin: bytes = b""
    entry: str = RUNTIME


def _folder() -> Path:
    folder = work_folder() / "cli"
    folder.mkdir(exist_ok=True)
    return folder


def _file(name: str, data: bytes) -> str:
    path = _folder() / name
    path.write_bytes(data)
    return str(path)


def _broken(name: str, make: Callable[[Path], None]) -> str:
    import shutil

    folder = _folder() / name
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(SHIPPED, folder)
    make(folder)
    return str(folder)


def _clean(result: Result) -> list[str]:
    problems = []
    if "Traceback" in result["stderr"]:
        problems.append("a raw traceback on stderr")
    return problems


def refusal(*wanted: str, status: int = 2) -> Callable[[Result], tuple[bool, str]]:
    """Exit `status`, stderr holding every fragment (`{work}`: the case files' folder), no traceback,
    nothing on stdout."""

    def check(result: Result) -> tuple[bool, str]:
        problems = _clean(result)
        if result["status"] != status:
            problems.append(f"exit {result['status']}, not {status}")
        missing = [part for part in wanted if part.replace("{work}", str(_folder())) not in result["stderr"]]
        if missing:
            problems.append(f"stderr lacks {[scrub(m) for m in missing]}")
        if result["stdout"].strip() and status == 2:
            problems.append("output written before the refusal")
        last = result["stderr"].strip().splitlines()[-1:] or [""]
        what = f"exit {result['status']}: {scrub(last[0])[:200]}"
        return not problems, what + ("; " + "; ".join(problems) if problems else "")

    return check


def records(expected: dict[int, Optional[str]], status: int = 0) -> Callable[[Result], tuple[bool, str]]:
    """One JSON record per line, numbered in order: line -> None (predicted) or a fragment its error
    must hold (alternatives with '|')."""

    def check(result: Result) -> tuple[bool, str]:
        problems = _clean(result)
        if result["status"] != status:
            problems.append(f"exit {result['status']}, not {status}: {scrub(result['stderr'])[-200:]}")
        try:
            got = [json.loads(line) for line in result["stdout"].splitlines() if line.strip()]
        except ValueError:
            got = []
            problems.append("output is not JSON lines")
        numbers = [record.get("line") for record in got]
        if numbers != sorted(expected):
            problems.append(f"records for lines {numbers}, expected {sorted(expected)}")
        errors = {record.get("line"): str(record["error"]) for record in got if "error" in record}
        for line, why in expected.items():
            if why is None and line in errors:
                problems.append(f"line {line} failed: {errors[line][:100]}")
            elif why is not None and not any(option in errors.get(line, "") for option in why.split("|")):
                problems.append(f"line {line}: no error naming {why!r} ({errors.get(line, 'predicted')!s:.100})")
        shown = {line: errors[line][:90] for line in sorted(errors)}
        what = f"exit {result['status']}; {len(got)} records; errors {scrub(str(shown))}"
        return not problems, what + ("; " + "; ".join(problems) if problems else "")

    return check


def bom_first_word(result: Result) -> tuple[bool, str]:
    problems = _clean(result)
    first = json.loads(result["stdout"].splitlines()[0]) if result["stdout"].strip() else {}
    words = [w for s in first.get("sentences", []) for w in s.get("words", [])]
    if not words or words[0] != "The":
        problems.append(f"first word {words[:1]}")
    return not problems, f"exit {result['status']}; first words {words[:3]}" + (
        "; " + "; ".join(problems) if problems else ""
    )


def records_then_damage(lines: int) -> Callable[[Result], tuple[bool, str]]:
    """Exit 2 after one predicted record for each of the first `lines` lines, stderr saying where the
    input broke off, no traceback."""

    def check(result: Result) -> tuple[bool, str]:
        problems = _clean(result)
        if result["status"] != 2:
            problems.append(f"exit {result['status']}, not 2")
        got = [json.loads(line) for line in result["stdout"].splitlines() if line.strip()]
        if [record.get("line") for record in got] != list(range(1, lines + 1)) or any("error" in r for r in got):
            problems.append(f"{len(got)} records, expected lines 1-{lines} predicted")
        if f"cannot be read after line {lines}" not in result["stderr"]:
            problems.append("stderr does not say where the input broke off")
        last = (result["stderr"].strip().splitlines() or [""])[-1]
        what = f"exit {result['status']}; {len(got)} records; {scrub(last)[:160]}"
        return not problems, what + ("; " + "; ".join(problems) if problems else "")

    return check


def _truncated_gzip(name: str, lines: int) -> tuple[str, int]:
    """A .gz cut in the middle of its compressed data, and how many whole lines can be read from it."""
    import gzip
    import zlib

    data = gzip.compress("".join(f"A fine film, number {i}.\n" for i in range(1, lines + 1)).encode())
    cut = data[: len(data) // 2]
    text = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(cut)
    return _file(name, cut), text.count(b"\n")


def cli_table() -> list[CliCase]:
    parse, classify = ["parse", SHIPPED_PARSER], ["classify", SENTIMENT]
    tag = ["tag", TAGGER_FOLDER]  # exported when the cases run, not when the table is built
    json_out = ["--format", "json", "--no-progress"]
    cr_only = _file("cr_only.txt", b"The cat sat.\rA dog barked.\rBirds sing.")
    conllu = _file(
        "given.conllu",
        b"# sent_id = 1\n# text = The cat\n1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n"
        b"2\tcat\tcat\tNOUN\tNN\t_\t0\troot\t_\t_\n\n",
    )
    array_line = _file("array_line.txt", b'a fine film\n["a fine film", 1]\ndull and flat\n')
    empty_text = _file("empty_text.jsonl", b'{"text": "A fine film."}\n{"text": ""}\n{"text": "   "}\nGood.\n')
    words = _file(
        "bad_words.jsonl",
        b'{"words": ["The", "cat"]}\n{"words": ["a", ""]}\n{"words": "The cat"}\n'
        b'{"words": ["The", "cat"], "upos": ["DET"]}\n{"words": ["a", "b\\u0000"]}\n{"words": ["a", 3]}\n',
    )
    surrogate = _file("surrogate.jsonl", b'{"text": "fine"}\n{"text": "bad \\ud800 text"}\n{"text": "good"}\n')
    bom = _file("bom.txt", b"\xef\xbb\xbfThe cat sat on the mat.\nBirds sing.\n")
    long_line = _file("long_line.txt", b"The cat sat.\n" + b"word " * 1500 + b"\nBirds sing.\n")
    nul = _file("nul.txt", b"EU rejects German call.\nA \x00 B\nPeter Blackburn\n")
    blank = _file("blank.txt", b"The cat sat.\n\nBirds sing.\n")
    escaping = _broken("escaping", _edit_meta(_set(("files", "int8"), "../../../../../../../etc/passwd")))
    cut = _broken("cut", _graph_bytes(lambda data: data[: len(data) // 3]))
    missing = str(_folder() / "no_such_file.txt")
    same = _file("same.txt", b"The cat sat.\nBirds sing.\n")
    cut_gzip, whole_lines = _truncated_gzip("cut.txt.gz", 3000)
    full_disk = (
        [
            CliCase(
                "green-nlp classify -o /dev/full (a full disk)",
                [*classify, same, "-o", "/dev/full", "--no-progress"],
                "exit 2: cannot write the output, no traceback",
                refusal("cannot write the output", "No space left"),
            )
        ]
        if Path("/dev/full").exists()
        else []
    )
    return [
        *full_disk,
        CliCase(
            "green-nlp parse -o naming the input file",
            [*parse, same, "-o", same, "--no-progress"],
            "exit 2 before anything is written, the input kept",
            refusal("-o", "is the input file", "would overwrite it"),
        ),
        CliCase(
            "green-nlp classify: a truncated .gz",
            [*classify, cut_gzip, *json_out],
            "the lines before the break predicted, then exit 2 naming the last line read",
            records_then_damage(whole_lines),
        ),
        CliCase(
            "green-nlp parse with a classifier",
            [*parse[:1], SENTIMENT, same, "--no-progress"],
            "exit 2 naming the model's family and its command",
            refusal("is a classifier", "green-nlp classify"),
        ),
        CliCase(
            "green-nlp serve --port 99999",
            ["serve", SHIPPED_PARSER, "--port", "99999"],
            "exit 2 naming the option (no silent wrap to another port)",
            refusal("--port", "99999"),
            entry=SERVER,
        ),
        CliCase(
            "green-nlp parse: CR-only line ends",
            [*parse, cr_only, *json_out],
            "3 texts, 3 records (\\r ends a line)",
            records({1: None, 2: None, 3: None}),
        ),
        CliCase(
            "green-nlp classify: CR-only line ends",
            [*classify, cr_only, *json_out],
            "3 texts, 3 records",
            records({1: None, 2: None, 3: None}),
        ),
        CliCase(
            "green-nlp tag: CR-only line ends",
            [*tag, cr_only, *json_out],
            "3 texts, 3 records",
            records({1: None, 2: None, 3: None}),
        ),
        CliCase(
            "green-nlp parse: a CoNLL-U file",
            [*parse, conllu],
            "refused before loading, naming the file",
            refusal("given.conllu", "CoNLL-U"),
        ),
        CliCase(
            "green-nlp tag: a CoNLL-U file",
            [*tag, conllu],
            "refused, naming the file",
            refusal("given.conllu", "CoNLL-U"),
        ),
        CliCase(
            "green-nlp classify: a JSON array line",
            [*classify, array_line, *json_out],
            "line 2 refused as the dataset readers refuse it; lines 1 and 3 classified",
            records({1: None, 2: "array|JSON", 3: None}),
        ),
        CliCase(
            "green-nlp parse: empty and blank texts",
            [*parse, empty_text, *json_out],
            "lines 2 and 3 error records (empty text); 1 and 4 parsed",
            records({1: None, 2: "empty|blank|no words|no tokens", 3: "empty|blank|no words|no tokens", 4: None}),
        ),
        CliCase(
            "green-nlp classify: empty and blank texts",
            [*classify, empty_text, *json_out],
            "lines 2 and 3 error records, not 'negative' counted as predicted",
            records({1: None, 2: "empty|blank|no words", 3: "empty|blank|no words", 4: None}),
        ),
        CliCase(
            "green-nlp parse: bad words lines",
            [*parse, words, *json_out],
            "lines 2-6 error records naming the field and item; line 1 parsed",
            records({1: None, 2: "empty", 3: "string", 4: "upos", 5: "NUL", 6: "number"}),
        ),
        CliCase(
            "green-nlp parse: a lone surrogate",
            [*parse, surrogate, *json_out],
            "line 2 an error record naming the surrogate",
            records({1: None, 2: "surrogate", 3: None}),
        ),
        CliCase(
            "green-nlp parse: a byte-order mark",
            [*parse, bom, *json_out],
            "the BOM dropped: the first word is 'The'",
            bom_first_word,
        ),
        CliCase(
            "green-nlp parse: a 1,500-word line among good ones",
            [*parse, long_line, *json_out],
            "only line 2 fails, naming max_sentence_length",
            records({1: None, 2: "max_sentence_length", 3: None}),
        ),
        CliCase(
            "green-nlp tag: a NUL line",
            [*tag, nul, *json_out],
            "line 2 an error record naming NUL",
            records({1: None, 2: "NUL", 3: None}),
        ),
        CliCase(
            "green-nlp parse --fail-on-error: a blank line",
            [*parse, blank, *json_out, "--fail-on-error"],
            "every line's record; exit 1 saying why",
            records({1: None, 2: "blank", 3: None}, status=1),
        ),
        CliCase(
            "green-nlp classify: non-UTF-8 on stdin",
            [*classify, "-", *json_out],
            "line 2 an error record naming UTF-8",
            records({1: None, 2: "UTF-8", 3: None}),
            stdin=b"a fine film\nbad \xff\xfe bytes\ndull\n",
        ),
        CliCase(
            "green-nlp parse: a missing input file",
            [*parse, missing],
            "exit 2 naming the file",
            refusal("no_such_file.txt"),
        ),
        CliCase(
            "green-nlp parse: a folder as input",
            [*parse, str(_folder())],
            "exit 2 naming the folder",
            refusal("{work}"),
        ),
        CliCase(
            "green-nlp parse: an unknown model",
            ["parse", "en-no-such-model", cr_only],
            "exit 2 naming the model and the ones available",
            refusal("en-no-such-model", SHIPPED_PARSER),
        ),
        CliCase(
            "green-nlp classify: a folder whose graph path escapes",
            ["classify", escaping, cr_only],
            "exit 2, one line naming the folder",
            refusal(escaping, "outside the folder"),
        ),
        CliCase(
            "green-nlp classify: a cut graph",
            ["classify", cut, cr_only],
            "exit 2, one line naming the graph",
            refusal(cut, "model.int8.onnx"),
        ),
        CliCase(
            "green-nlp parse --batch-size 0",
            [*parse, cr_only, "--batch-size", "0"],
            "exit 2 naming the option",
            refusal("--batch-size"),
        ),
        CliCase(
            "green-nlp parse --shard 3/2",
            [*parse, cr_only, "--shard", "3/2"],
            "exit 2 naming the shard",
            refusal("3/2"),
        ),
        CliCase(
            "green-nlp parse --threads 0",
            [*parse, cr_only, "--threads", "0"],
            "exit 2 naming threads",
            refusal("threads"),
        ),
        CliCase(
            "green-nlp parse -o into a missing folder",
            [*parse, cr_only, "-o", str(_folder() / "nope" / "o")],
            "exit 2 naming the output path",
            refusal("nope"),
        ),
        CliCase(
            "green-nlp serve: an unknown model",
            ["serve", "en-no-such-model", "--port", "0"],
            "exit 2 naming the model",
            refusal("en-no-such-model"),
            entry=SERVER,
        ),
        CliCase(
            "green-nlp serve: a folder whose graph path escapes",
            ["serve", escaping, "--port", "0"],
            "exit 2, one line naming the folder",
            refusal(escaping, "outside the folder"),
            entry=SERVER,
        ),
        CliCase(
            "green-nlp serve: a cut graph",
            ["serve", cut, "--port", "0"],
            "exit 2 naming the graph",
            refusal(cut, "model.int8.onnx"),
            entry=SERVER,
        ),
        CliCase(
            "green-nlp serve --header-timeout 0",
            ["serve", SHIPPED_PARSER, "--header-timeout", "0"],
            "exit 2 naming the option",
            refusal("header-timeout"),
            entry=SERVER,
        ),
        CliCase(
            "green-nlp serve --max-connections 0",
            ["serve", SHIPPED_PARSER, "--max-connections", "0"],
            "exit 2 naming the option",
            refusal("max-connections"),
            entry=SERVER,
        ),
    ]


@functools.cache
def cli_results(entry: str) -> dict[str, Result]:
    """Every command line of the table for one entry point, in one child process (OMP_NUM_THREADS=1):
    `green-nlp serve` refuses to start in a process where parse has imported torch (spaCy's thinc)."""
    table = [c for c in cli_table() if c.entry == entry]
    spec = _folder() / f"spec_{len(entry)}.json"
    out = _folder() / f"results_{len(entry)}.json"
    spec.write_text(
        json.dumps([{"name": c.name, "argv": _resolved(c.argv), "stdin": c.stdin.decode("latin-1")} for c in table]),
        encoding="utf-8",
    )
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(REPO)}
    subprocess.run(
        [sys.executable, "-m", "benchmarks.robustness.cli_driver", str(spec), str(out)],
        cwd=REPO,
        env=env,
        check=True,
        timeout=1800,
    )
    return json.loads(out.read_text(encoding="utf-8"))


def _resolved(argv: list[str]) -> list[str]:
    return [str(tagger_folder()) if arg == TAGGER_FOLDER else arg for arg in argv]


def _judged(case: CliCase) -> Callable[[Result], Outcome]:
    return lambda result: case.check(result)


def cli_cases() -> list[Case]:
    return [
        Case(
            c.name,
            f"green-nlp {c.argv[0]} (one process for all {c.entry} start-up cases)",
            c.expected,
            functools.partial(lambda name, entry: cli_results(entry)[name], c.name, c.entry),
            check=_judged(c),
            entry=c.entry,
        )
        for c in cli_table()
    ]
