"""Cold start, speed, accuracy, memory and size of one raw-text biaffine parser served five ways on
one CPU thread, on UD English-EWT test, all measured in the same run (issue 30):

- `allennlp_predictor`: AllenNLP's `green_dependency_parser` predictor, `predict_json` at batch 1
  and `predict_batch_json` at batch 32, on `{"words": [...]}` (the predictor takes pre-tokenized
  words as JSON; no spaCy), as `allennlp predict` calls it;
- `torch`: the model called directly: the reader's `text_to_instance`, AllenNLP's `Batch`
  tensorization, `model(**tensors)` and `make_output_human_readable` under `torch.inference_mode`;
- `torch_int8`: the same on `green_nlp.nn.quantization.quantize_for_cpu(model)` (dynamic int8);
- `onnx_fp32` / `onnx_int8`: the torch-free runtime (`green_nlp.runtime`,
  `parse_sentences(..., batch_size)`) on the two graphs `export_archive` writes.

Every path gets the same words (the gold tokenization, without the gold UPOS: the raw-text model
predicts UPOS) and the same batches, in three settings: `b1` (one sentence per call), `b32`
(consecutive batches of 32 in file order, as `allennlp predict` and `green-nlp parse` batch a file;
inside a batch AllenNLP pads in input order and the runtime sorts by length first, the same
padding) and `b32-sorted` (all sentences sorted by length before batching, as AllenNLP's bucket
sampler does in training). Every pass turns words into heads, relations and UPOS: indexing, the
model, tree and label decoding.

    python -m benchmarks.runtime.parser [--archive runs/shipped/en_ewt_parser/model.tar.gz] [--sentences N]
                                 [--repeats 3] [--batch1-sentences N] [--runtime-venv PATH]
    python -m benchmarks.runtime.parser --report-only   # rewrite runtime.md from the saved runtime.json

Run from the repository root. Parts (`--parts`, all by default):

1. `cold_start`, median of 3 runs after one untimed run (so the OS file cache is warm for all):
   process start to the first line on stdout of `allennlp predict ARCHIVE one_line.txt
   --include-package green_nlp --silent --output-file /dev/stdout` (without `--output-file`,
   `--silent` makes `allennlp predict` print a notice and exit after loading, before predicting)
   and of `green-nlp parse FOLDER one_line.txt` (int8, as shipped, and fp32), plus
   `python -c "import green_nlp.runtime"` and `import spacy` alone; the same from a runtime-only
   venv given with `--runtime-venv`. Every process runs with OMP_NUM_THREADS=1 and
   PYTHONUNBUFFERED=1; the untimed run gives its peak RSS (`RSS_LAUNCHER`);
2. `speed` (with accuracy): passes round-robin over paths and settings, a warm-up on the first 64
   sentences, then `--repeats` timed passes, the fastest reported (wall clock; per CPU second of
   the process beside it); latency p50/p95 per sentence at b1 from that pass. Then accuracy of
   each path's b32 answers (UAS/LAS over all words, punctuation included, full relations; UPOS
   accuracy), whether its b1 and b32-sorted answers are the same, and the runtime's
   `int8_agreement` of the int8 graph with the fp32 graph;
3. `memory`: peak RSS of each path in a process of its own (`--memory-child`: load, then parse all
   the sentences at b32);
4. `sizes` on disk: the archive, the graphs, the exported folder, the training venv (`.venv`, link
   resolved) and the `--runtime-venv`.

Writes benchmarks/results/runtime.json and runtime.md. Only the standard library is imported at
the top: `--memory-child onnx_*` must not import torch.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from benchmarks.common import REPO as REPO_ROOT
from benchmarks.common import RESULTS, hardware_description, markdown_table  # no torch: see above

DEFAULT_ARCHIVE = Path("runs/shipped/en_ewt_parser/model.tar.gz")
TEST_FILE_PARTS = ("ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
FORMS = ("allennlp_predictor", "torch", "torch_int8", "onnx_fp32", "onnx_int8")
TORCH_FORMS = FORMS[:3]
BATCH_SIZES = (1, 32)
# speed setting -> (batch size, sort all sentences by length before batching)
SETTINGS = {"b1": (1, False), "b32": (32, False), "b32-sorted": (32, True)}
PARTS = ("cold_start", "speed", "memory", "sizes")
WARMUP_SENTENCES = 64
ONE_THREAD_ENV = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}


def this_clone_env() -> Dict[str, str]:
    """The environment of a child process: one thread, unbuffered output, this clone's green_nlp first.
    Run as `python -m` from the root, this process imports this clone's green_nlp; a child (a console
    script such as `allennlp`) would import the shared venv's editable install, which points at the
    clone that ran the set-up last."""
    path = os.pathsep.join([str(REPO_ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    return {**os.environ, **ONE_THREAD_ENV, "PYTHONPATH": path}


def runtime_venv_env() -> Dict[str, str]:
    """A runtime-only venv's child: its own installed green_nlp, one thread."""
    env = {**os.environ, **ONE_THREAD_ENV}
    env.pop("PYTHONPATH", None)
    return env


AIMS = {"green_nlp_cold_start_s": 2.0, "cold_start_speedup": 5.0, "onnx_int8_vs_torch_int8": 1.3}

# one parsed sentence: (heads, relations, UPOS or None)
Parsed = Tuple[List[int], List[str], Optional[List[str]]]
ParseBatch = Callable[[List[List[str]]], List[Parsed]]


# ------------------------------------------------------------------------------------ data
def read_gold(path: Path, limit: Optional[int] = None) -> List[Dict[str, Any]]:
    """The first `limit` sentences of a CoNLL-U file (all when None): words, UPOS, heads,
    relations and the `# text` comment; multiword tokens and empty nodes skipped, as the
    `conllu_dependencies` reader and `green_nlp.runtime.parser_agreement.read_conllu_words` skip them."""
    import conllu

    sentences = []
    with open(path, encoding="utf-8") as handle:
        for sentence in conllu.parse_incr(handle):
            tokens = [token for token in sentence if isinstance(token["id"], int)]
            if not tokens:
                continue
            sentences.append(
                {
                    "words": [t["form"] for t in tokens],
                    "upos": [t["upos"] for t in tokens],
                    "heads": [int(t["head"]) for t in tokens],
                    "deprels": [t["deprel"] for t in tokens],
                    "text": sentence.metadata.get("text"),
                }
            )
            if limit is not None and len(sentences) >= limit:
                break
    return sentences


def data_stats(gold: List[Dict[str, Any]]) -> Dict[str, int]:
    """The longest sentence (words) and word (characters): batches pad to both."""
    return {
        "longest_sentence_words": max(len(s["words"]) for s in gold),
        "longest_word_chars": max(len(word) for s in gold for word in s["words"]),
    }


def chunks(items: Sequence[Any], size: int) -> List[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def shown_path(path: Path) -> str:
    """A path for the results files: relative to the repository when inside it, else its name only
    (no absolute path of this machine goes into the repository)."""
    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return Path(path).name


# ---------------------------------------------------------------------------- the five paths
def predictor_path(predictor: Any) -> Dict[int, ParseBatch]:
    """As `allennlp predict` calls the predictor: `predict_json` for one line, else `predict_batch_json`."""

    def record(output: Dict[str, Any]) -> Parsed:
        sentence = output["sentences"][0]
        return sentence["heads"], sentence["deprels"], sentence.get("upos")

    def one(batch: List[List[str]]) -> List[Parsed]:
        return [record(predictor.predict_json({"words": words})) for words in batch]

    def many(batch: List[List[str]]) -> List[Parsed]:
        return [record(output) for output in predictor.predict_batch_json([{"words": words} for words in batch])]

    return {1: one, 32: many}


def torch_path(model: Any, reader: Any) -> ParseBatch:
    """The model called directly: reader -> Batch tensors -> forward + decoding, no predictor."""
    import torch
    from allennlp.data import Batch

    def parse(batch: List[List[str]]) -> List[Parsed]:
        instances = [reader.text_to_instance(words) for words in batch]
        for instance in instances:
            reader.apply_token_indexers(instance)
        tensors = Batch(instances)
        tensors.index_instances(model.vocab)
        with torch.inference_mode():
            output = model.make_output_human_readable(model(**tensors.as_tensor_dict()))
        upos = output.get("predicted_upos") or [None] * len(batch)
        return list(zip(output["predicted_heads"], output["predicted_deprels"], upos))

    return parse


def runtime_path(nlp: Any) -> ParseBatch:
    def parse(batch: List[List[str]]) -> List[Parsed]:
        return [
            (s.heads, s.deprels, s.upos)
            for s in nlp.parse_sentences([(words, None) for words in batch], batch_size=len(batch))
        ]

    return parse


def load_paths(archive_path: Path, folder: Path, forms: Sequence[str] = FORMS) -> Dict[str, Dict[int, ParseBatch]]:
    """form -> {batch size -> function parsing one batch of word lists}, everything on one thread."""
    paths: Dict[str, Dict[int, ParseBatch]] = {}
    if any(form in TORCH_FORMS for form in forms):
        import torch
        from allennlp.models.archival import load_archive
        from allennlp.predictors import Predictor

        import green_nlp

        torch.set_num_threads(1)
        green_nlp.register()
        archive = load_archive(str(archive_path), cuda_device=-1)
        model, reader = archive.model.eval(), archive.validation_dataset_reader
        if "allennlp_predictor" in forms:
            paths["allennlp_predictor"] = predictor_path(Predictor.from_archive(archive, "green_dependency_parser"))
        if "torch" in forms:
            parse = torch_path(model, reader)
            paths["torch"] = {size: parse for size in BATCH_SIZES}
        if "torch_int8" in forms:
            from green_nlp.nn.quantization import quantize_for_cpu

            parse = torch_path(quantize_for_cpu(model), reader)
            paths["torch_int8"] = {size: parse for size in BATCH_SIZES}
    from green_nlp.runtime import load

    for form, precision in (("onnx_fp32", "fp32"), ("onnx_int8", "int8")):
        if form in forms:
            parse = runtime_path(load(folder, precision=precision, threads=1))
            paths[form] = {size: parse for size in BATCH_SIZES}
    return {form: paths[form] for form in forms}


# ---------------------------------------------------------------------------------- 2. speed
def timed_pass(parse: ParseBatch, batches: List[List[List[str]]]) -> Dict[str, Any]:
    """One pass: answers, wall and CPU seconds, and each batch's wall seconds."""
    answers: List[Parsed] = []
    latencies = []
    start_cpu, start = time.process_time(), time.perf_counter()
    for batch in batches:
        before = time.perf_counter()
        answers.extend(parse(batch))
        latencies.append(time.perf_counter() - before)
    return {
        "wall_s": time.perf_counter() - start,
        "cpu_s": time.process_time() - start_cpu,
        "latencies": latencies,
        "answers": answers,
    }


def measure_speed(
    paths: Dict[str, Dict[int, ParseBatch]],
    words: List[List[str]],
    repeats: int,
    batch1_sentences: Optional[int] = None,
) -> Tuple[Dict[str, Dict[str, Any]], Dict[str, List[Parsed]]]:
    """Rows "form setting" (tokens/s, sentences/s, latency at batch 1) from the fastest of `repeats`
    round-robin passes, and each row's answers (parsed sentences in input order). Settings: "b1"
    (on the first `batch1_sentences` sentences only, when given), "b32" (consecutive batches in file
    order, as `allennlp predict` and `green-nlp parse` batch a file) and "b32-sorted" (all sentences
    sorted by length first, as AllenNLP's bucket sampler batches, so a batch holds similar lengths)."""
    runs: Dict[str, Tuple[ParseBatch, List[List[List[str]]], List[int]]] = {}
    for setting, (size, by_length) in SETTINGS.items():
        count = min(len(words), batch1_sentences) if size == 1 and batch1_sentences else len(words)
        order = sorted(range(count), key=lambda i: len(words[i])) if by_length else list(range(count))
        batches = [[words[i] for i in chunk] for chunk in chunks(order, size)]
        for form, by_size in paths.items():
            runs[f"{form} {setting}"] = (by_size[size], batches, order)
    for parse, batches, _ in runs.values():  # warm-up: first calls allocate, onnxruntime plans
        warm = [sentence for batch in batches for sentence in batch][:WARMUP_SENTENCES]
        timed_pass(parse, [list(batch) for batch in chunks(warm, len(batches[0]))])
    passes: Dict[str, List[Dict[str, Any]]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, (parse, batches, _) in runs.items():
            passes[name].append(timed_pass(parse, batches))
    rows, answers = {}, {}
    for name, (_, batches, order) in runs.items():
        best = min(passes[name], key=lambda p: p["wall_s"])
        sentences = len(order)
        tokens = sum(len(words) for batch in batches for words in batch)
        row: Dict[str, Any] = {
            "form": name.split()[0],
            "setting": name.split()[1],
            "batch_size": len(batches[0]),
            "sentences": sentences,
            "tokens": tokens,
            "tokens_per_s": tokens / best["wall_s"],
            "sentences_per_s": sentences / best["wall_s"],
            "tokens_per_cpu_s": tokens / best["cpu_s"],
            "pass_wall_s": [round(p["wall_s"], 3) for p in passes[name]],
        }
        if len(batches[0]) == 1:
            ms = sorted(1000 * t for t in best["latencies"])
            row["latency_p50_ms"] = percentile(ms, 50)
            row["latency_p95_ms"] = percentile(ms, 95)
        rows[name] = row
        restored: List[Any] = [None] * sentences
        for position, index in enumerate(order):
            restored[index] = best["answers"][position]
        answers[name] = restored
    return rows, answers


def percentile(sorted_values: List[float], q: float) -> float:
    """Linear-interpolated percentile of already sorted values (numpy's default method)."""
    position = (len(sorted_values) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def speed_ratios(rows: Dict[str, Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """Tokens/s ratios between rows of this run only: ONNX int8 over torch int8, and every path
    over the AllenNLP predictor, at each batch size (each with the two figures it divides)."""
    ratios: Dict[str, Dict[str, Any]] = {}

    def add(name: str, numerator: str, denominator: str) -> None:
        if numerator in rows and denominator in rows and rows[numerator]["sentences"] == rows[denominator]["sentences"]:
            a, b = rows[numerator]["tokens_per_s"], rows[denominator]["tokens_per_s"]
            ratios[name] = {
                "numerator": numerator,
                "denominator": denominator,
                "numerator_tokens_per_s": a,
                "denominator_tokens_per_s": b,
                "ratio": a / b,
            }

    for setting in SETTINGS:
        add(f"onnx_int8_vs_torch_int8 {setting}", f"onnx_int8 {setting}", f"torch_int8 {setting}")
        for form in FORMS[1:]:
            add(f"{form}_vs_allennlp_predictor {setting}", f"{form} {setting}", f"allennlp_predictor {setting}")
    return ratios


# ------------------------------------------------------------------------------- 3. accuracy
def attachment(gold: List[Dict[str, Any]], answers: List[Parsed]) -> Dict[str, Any]:
    """UAS / LAS over all words (punctuation included, full relations) and UPOS accuracy, in percent."""
    words = heads = labeled = upos = 0
    tagged = False
    for sentence, (pred_heads, pred_deprels, pred_upos) in zip(gold, answers):
        for i, (head, deprel) in enumerate(zip(sentence["heads"], sentence["deprels"])):
            words += 1
            heads += pred_heads[i] == head
            labeled += pred_heads[i] == head and pred_deprels[i] == deprel
            if pred_upos is not None:
                tagged = True
                upos += pred_upos[i] == sentence["upos"][i]
    scores: Dict[str, Any] = {"words": words, "uas": 100 * heads / words, "las": 100 * labeled / words}
    if tagged:
        scores["upos_accuracy"] = 100 * upos / words
    return scores


def accuracy(gold: List[Dict[str, Any]], answers: Dict[str, List[Parsed]]) -> Dict[str, Dict[str, Any]]:
    """Per path: scores of its b32 answers, whether its b1 answers (on the sentences batch 1 ran)
    and b32-sorted answers are the same, and the share of words whose head and relation equal the
    predictor's."""
    reference = answers.get("allennlp_predictor b32")
    table: Dict[str, Dict[str, Any]] = {}
    for form in FORMS:
        big = answers.get(f"{form} b32")
        if big is None:
            continue
        row = attachment(gold, big)
        for setting in SETTINGS:
            other = answers.get(f"{form} {setting}")
            if setting != "b32" and other is not None:
                row[f"{setting}_answers_same"] = other == big[: len(other)]
        if reference is not None:
            same = total = 0
            for (h1, d1, _), (h2, d2, _) in zip(big, reference):
                same += sum(a == b for a, b in zip(zip(h1, d1), zip(h2, d2)))
                total += len(h1)
            row["same_arcs_as_predictor"] = same / total
        table[form] = row
    return table


# ----------------------------------------------------------------------------- 1. cold start
# Runs a command from a small process and reports its peak RSS on stderr. A child started straight
# from this (large) process would report at least this process's own peak: Linux carries the peak
# RSS of the address space a process replaces at exec into its ru_maxrss.
RSS_LAUNCHER = """import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"\\nMAXRSS_KB={usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""
RSS_MARKER = "MAXRSS_KB="


def measured_process(
    command: List[str], env: Dict[str, str], rss: bool = False, cwd: Path = REPO_ROOT
) -> Dict[str, Any]:
    """Run `command`: seconds from its start to its first stdout line and to its exit, its stdout,
    and with `rss` its peak RSS in MB (then it runs under `RSS_LAUNCHER`, which adds that small
    Python's start to the times). stderr goes to a file, so neither pipe can fill up."""
    if rss:
        command = [sys.executable, "-c", RSS_LAUNCHER, *command]
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, env=env, cwd=cwd)
        first = process.stdout.readline()
        first_s = time.perf_counter() - start
        out = first + process.stdout.read()
        process.stdout.close()
        returncode = process.wait()
        exit_s = time.perf_counter() - start
        errors.seek(0)
        error_text = errors.read().decode(errors="replace")
    if returncode != 0 or not first:
        raise RuntimeError(f"{' '.join(command[-12:])} failed (exit {returncode}): {error_text[-3000:]}")
    found: Dict[str, Any] = {"first_line_s": first_s, "exit_s": exit_s, "stdout": out.decode(errors="replace")}
    if rss:
        kilobytes = [line.split(RSS_MARKER)[1] for line in error_text.splitlines() if RSS_MARKER in line]
        found["max_rss_mb"] = int(kilobytes[-1]) / 1024
    return found


def cold_start(commands: Dict[str, List[str]], repeats: int = 3) -> Dict[str, Dict[str, Any]]:
    """Median of `repeats` timed runs of each command (round-robin), after one untimed run each
    that warms the file cache and measures the peak RSS."""

    def run(name: str, rss: bool = False) -> Dict[str, Any]:
        if name.endswith("(runtime venv)"):  # outside the clone, so `python -c` cannot import its green_nlp
            return measured_process(commands[name], runtime_venv_env(), rss, cwd=Path(tempfile.gettempdir()))
        return measured_process(commands[name], this_clone_env(), rss)

    peak = {name: run(name, rss=True)["max_rss_mb"] for name in commands}
    runs: Dict[str, List[Dict[str, Any]]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name in commands:
            runs[name].append(run(name))
    return {
        name: {
            "first_line_s": statistics.median(r["first_line_s"] for r in found),
            "exit_s": statistics.median(r["exit_s"] for r in found),
            "max_rss_mb": peak[name],
            "runs_first_line_s": [round(r["first_line_s"], 3) for r in found],
            "first_line": found[0]["stdout"].splitlines()[0][:200],
        }
        for name, found in runs.items()
    }


def venv_commands(bin_dir: Path) -> Dict[str, List[str]]:
    """The commands a venv's bin folder offers (allennlp, green-nlp, python), by name."""
    return {name: str(bin_dir / name) for name in ("allennlp", "green-nlp", "python") if (bin_dir / name).exists()}


def cold_start_commands(
    archive: Path,
    folder: Path,
    one_line: Path,
    runtime_venv: Optional[Path] = None,
    classifier: Optional[Tuple[Path, Path]] = None,
) -> Dict[str, List[str]]:
    """name -> command: allennlp predict on the archive, green-nlp parse on the folder (int8 as
    shipped, and fp32), and the imports alone; the same green-nlp commands from a runtime-only
    venv when one is given. `import spacy` prints whether it imported torch (thinc imports torch
    whenever it is installed, so raw text makes green-nlp load torch in the training venv). With
    `classifier` (an n-gram DAN archive and its exported folder), the same pair for classification:
    `allennlp predict` against `green-nlp classify`."""
    found = venv_commands(Path(sys.executable).parent)
    if "allennlp" not in found or "green-nlp" not in found:
        sys.exit("cold start needs the `allennlp` and `green-nlp` commands beside this Python")
    found["python"] = sys.executable
    venvs = {"": found}
    if runtime_venv is not None:
        runtime = venv_commands(runtime_venv / "bin")
        if "green-nlp" in runtime and "python" in runtime:
            venvs[" (runtime venv)"] = runtime
        else:
            print(f"no green-nlp and python in {runtime_venv}/bin: runtime venv not timed", file=sys.stderr)
    commands = {
        "allennlp_predict": [
            found["allennlp"],
            "predict",
            str(archive),
            str(one_line),
            "--include-package",
            "green_nlp",
            "--silent",
            "--output-file",
            "/dev/stdout",
        ]
    }
    if classifier is not None:
        commands["allennlp_predict_classifier"] = [
            found["allennlp"],
            "predict",
            str(classifier[0]),
            str(one_line),
            "--include-package",
            "green_nlp",
            "--silent",
            "--output-file",
            "/dev/stdout",
        ]
    for suffix, bins in venvs.items():
        for precision in ("int8", "fp32"):
            commands[f"green_nlp_parse_{precision}{suffix}"] = [
                bins["green-nlp"],
                "parse",
                str(folder),
                str(one_line),
                "--precision",
                precision,
                "--threads",
                "1",
            ]
        if classifier is not None:
            commands[f"green_nlp_classify{suffix}"] = [
                bins["green-nlp"],
                "classify",
                str(classifier[1]),
                str(one_line),
                "--threads",
                "1",
            ]
        commands[f"import_green_nlp_runtime{suffix}"] = [
            bins["python"],
            "-c",
            "import sys, green_nlp.runtime; print('green_nlp from', 'this clone' if "
            "green_nlp.runtime.__file__.startswith(sys.argv[1]) else 'an installed copy')",
            str(REPO_ROOT),
        ]
        commands[f"import_spacy{suffix}"] = [
            bins["python"],
            "-c",
            "import sys, spacy; print('torch imported:', 'torch' in sys.modules)",
        ]
    return commands


# --------------------------------------------------------------------------- 4. memory, sizes
def memory_child(form: str, archive: Path, folder: Path, test_file: Path, sentences: Optional[int]) -> None:
    """In a process of its own: load `form`, parse the sentences at batch 32, report what was imported."""
    words = [s["words"] for s in read_gold(test_file, sentences)]
    parse = load_paths(archive, folder, [form])[form][32]
    loaded = peak_rss_so_far_mb()
    parsed = sum(len(parse(list(batch))) for batch in chunks(words, 32))
    import green_nlp

    print(
        json.dumps(
            {
                "form": form,
                "sentences": parsed,
                "loaded_peak_rss_mb": loaded,
                "green_nlp_from_this_clone": Path(green_nlp.__file__).resolve().is_relative_to(REPO_ROOT),
                "torch_imported": "torch" in sys.modules,
                "allennlp_imported": "allennlp" in sys.modules,
            }
        )
    )


def peak_rss_so_far_mb() -> Optional[float]:
    """This process's peak RSS so far (VmHWM), None where /proc is not there."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def peak_memory(
    forms: Sequence[str], archive: Path, folder: Path, test_file: Path, sentences: Optional[int]
) -> Dict[str, Dict[str, Any]]:
    """Peak RSS (MB, `os.wait4`'s ru_maxrss) of a process that loads one path and parses the sentences."""
    env = this_clone_env()
    found = {}
    for form in forms:
        command = [
            sys.executable,
            "-m",
            __spec__.name,
            "--memory-child",
            form,
            "--archive",
            str(archive),
            "--folder",
            str(folder),
            "--test-file",
            str(test_file),
        ]
        if sentences:
            command += ["--sentences", str(sentences)]
        run = measured_process(command, env, rss=True)
        found[form] = {
            "max_rss_mb": run["max_rss_mb"],
            "seconds": run["exit_s"],
            **json.loads(run["stdout"].strip().splitlines()[-1]),
        }
    return found


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in Path(path).rglob("*") if p.is_file())


def du_bytes(path: Path) -> Optional[int]:
    """Disk usage of a folder (`du -s`, links not followed), None if du fails."""
    try:
        result = subprocess.run(
            ["du", "-s", "--block-size=1", str(path)], capture_output=True, text=True, timeout=600, check=True
        )
        return int(result.stdout.split()[0])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def disk_sizes(archive: Path, folder: Path, runtime_venv: Optional[Path]) -> Dict[str, Any]:
    from green_nlp.runtime.model_folder import FP32_FILE, INT8_FILE, META_FILE

    mb = 1e6
    sizes: Dict[str, Any] = {
        "archive_mb": archive.stat().st_size / mb,
        "onnx_fp32_mb": (folder / FP32_FILE).stat().st_size / mb,
        "onnx_int8_mb": (folder / INT8_FILE).stat().st_size / mb,
        "metadata_json_mb": (folder / META_FILE).stat().st_size / mb,
        "exported_folder_mb": tree_bytes(folder) / mb,
        "shipped_folder_int8_only_mb": ((folder / INT8_FILE).stat().st_size + (folder / META_FILE).stat().st_size) / mb,
    }
    venv = REPO_ROOT / ".venv"
    if venv.exists():
        found = du_bytes(venv.resolve())
        sizes["training_venv_gb"] = found / 1e9 if found is not None else None
    if runtime_venv is not None:
        found = du_bytes(runtime_venv.resolve())
        sizes["runtime_venv_gb"] = found / 1e9 if found is not None else None
    return sizes


# ------------------------------------------------------------------------------------- report
def cold_start_ratios(cold: Dict[str, Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """allennlp predict's time to its first line over green-nlp parse's, from this run's medians."""
    ratios = {}
    for name in cold:
        baseline = (
            "allennlp_predict"
            if name.startswith("green_nlp_parse_")
            else "allennlp_predict_classifier"
            if name.startswith("green_nlp_classify")
            else None
        )
        if baseline in cold:
            a, b = cold[baseline]["first_line_s"], cold[name]["first_line_s"]
            ratios[f"{baseline}_vs_{name}"] = {
                "numerator": baseline,
                "denominator": name,
                "numerator_s": a,
                "denominator_s": b,
                "ratio": a / b,
            }
    return ratios


def aims(results: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """The issue's aims, each with the figure of this run and whether it is met."""
    found: Dict[str, Dict[str, Any]] = {}

    def add(name: str, value: float, aim: float, at_most: bool) -> None:
        found[name] = {
            "aim": f"{'<=' if at_most else '>='} {aim}",
            "value": value,
            "met": value <= aim if at_most else value >= aim,
        }

    cold = results.get("cold_start") or {}
    for suffix in ("", " (runtime venv)"):
        name = f"green_nlp_parse_int8{suffix}"
        if name in cold:
            add(
                f"green-nlp parse cold start, s{suffix}",
                cold[name]["first_line_s"],
                AIMS["green_nlp_cold_start_s"],
                True,
            )
            add(
                f"cold start speed-up over allennlp predict{suffix}",
                results["cold_start_ratios"][f"allennlp_predict_vs_{name}"]["ratio"],
                AIMS["cold_start_speedup"],
                False,
            )
        name = f"green_nlp_classify{suffix}"
        if name in cold and "allennlp_predict_classifier" in cold:
            add(
                f"green-nlp classify cold start, s{suffix}",
                cold[name]["first_line_s"],
                AIMS["green_nlp_cold_start_s"],
                True,
            )
            add(
                f"classify cold start speed-up over allennlp predict{suffix}",
                results["cold_start_ratios"][f"allennlp_predict_classifier_vs_{name}"]["ratio"],
                AIMS["cold_start_speedup"],
                False,
            )
    for setting in SETTINGS:
        ratio = results.get("speed_ratios", {}).get(f"onnx_int8_vs_torch_int8 {setting}")
        if ratio:
            add(f"ONNX int8 / torch int8 tokens/s, {setting}", ratio["ratio"], AIMS["onnx_int8_vs_torch_int8"], False)
    return found


def _yes_no(row: Dict[str, Any]) -> Dict[str, Any]:
    return {key: ("yes" if value else "no") if isinstance(value, bool) else value for key, value in row.items()}


def render(results: Dict[str, Any]) -> str:
    """The Markdown report: speed, accuracy and memory per path, cold start, sizes, aims, notes."""
    parts = [f"# Runtime benchmark: {results['archive']} on UD English-EWT test\n"]
    speed = results.get("speed")
    if speed:
        ratios = results["speed_ratios"]
        rows = {}
        for name, row in speed.items():
            form, setting = name.split()
            vs = ratios.get(f"{form}_vs_allennlp_predictor {setting}")
            rows[name] = {**row, "vs_predictor": vs["ratio"] if vs else (1.0 if form == "allennlp_predictor" else None)}
        parts.append(
            markdown_table(
                rows,
                [
                    "sentences",
                    "tokens_per_s",
                    "sentences_per_s",
                    "tokens_per_cpu_s",
                    "latency_p50_ms",
                    "latency_p95_ms",
                    "vs_predictor",
                ],
                "path",
            )
        )
    per_form = {}
    for form in FORMS:
        row: Dict[str, Any] = dict(results.get("accuracy", {}).get(form, {}))
        memory = results.get("memory", {}).get(form)
        if memory:
            row["peak_rss_mb"] = memory["max_rss_mb"]
            row["loaded_rss_mb"] = memory.get("loaded_peak_rss_mb")
            row["torch_imported"] = memory["torch_imported"]
        if row:
            per_form[form] = _yes_no(row)
    if per_form:
        parts.append(
            markdown_table(
                per_form,
                [
                    "uas",
                    "las",
                    "upos_accuracy",
                    "b1_answers_same",
                    "b32-sorted_answers_same",
                    "same_arcs_as_predictor",
                    "loaded_rss_mb",
                    "peak_rss_mb",
                    "torch_imported",
                ],
                "path",
            )
        )
    cold = results.get("cold_start")
    if cold:
        parts.append(
            markdown_table(cold, ["first_line_s", "exit_s", "max_rss_mb", "first_line"], "command (cold start)")
        )
    sizes = results.get("sizes")
    if sizes:
        parts.append(markdown_table({"size": sizes}, list(sizes), "on disk"))
    lines = [
        f"- {name}: {aim['value']:.2f} (aim {aim['aim']}): {'met' if aim['met'] else 'NOT met'}"
        for name, aim in results.get("aims", {}).items()
    ]
    agreement = results.get("int8_agreement")
    if agreement:
        lines.append(
            f"- int8 graph vs fp32 graph (`int8_agreement`, {agreement['words']:,} words): same head "
            f"{agreement['heads']:.2%}, same head and relation {agreement['heads_and_labels']:.2%}"
            + (f", same UPOS {agreement['upos']:.2%}" if "upos" in agreement else "")
            + f", sentences identical {agreement['sentences']:.2%}"
        )
    parts.append("\n".join(lines) + ("\n" if lines else ""))
    parts.append(results["note"] + "\n")
    return "\n".join(parts)


def note(results: Dict[str, Any]) -> str:
    load = results["load_average"]
    text = (
        f"{results['test_sentences']:,} test sentences ({results['test_tokens']:,} words, gold tokenization, "
        f"no gold UPOS) unless a row says fewer; one thread everywhere (torch.set_num_threads(1), onnxruntime "
        f"intra_op_num_threads=1, OMP_NUM_THREADS=1); {results['hardware']}; load average (1, 5, 15 min) "
        + "/".join(f"{x:.2f}" for x in load["start"])
        + " at start, "
        + "/".join(f"{x:.2f}" for x in load["end"])
        + f" at end, on {os.cpu_count()} logical CPUs shared with other work; {results['date']}."
    )
    for part, run_info in (results.get("part_runs") or {}).items():
        if run_info.get("date") != results["date"]:
            text += (
                f" {part} was measured in an earlier run ({run_info.get('date')}, load average "
                + "/".join(f"{x:.2f}" for x in run_info["load_average"]["start"])
                + " at its start)."
            )
    if results.get("speed"):
        text += (
            f" Speed: fastest of {results['repeats']} round-robin passes after a warm-up, wall clock "
            "(tokens_per_cpu_s: per CPU second of this process); every pass turns words into heads, relations "
            "and UPOS. b1: one sentence per call (predict_json; latency per sentence from that pass). b32: "
            "consecutive batches of 32 in file order, as allennlp predict and green-nlp parse batch a file "
            "(AllenNLP pads in input order, the runtime sorts inside the batch: the same padding). b32-sorted: "
            "all sentences sorted by length first, so each batch holds similar lengths. vs_predictor: tokens/s "
            "over the AllenNLP predictor's in the same setting, in this run."
        )
        stats = results.get("test_data")
        if stats:
            text += (
                " A batch pads every word to the batch's longest word in characters (the character CNN) and "
                f"every sentence to its longest sentence: the test set's longest word has "
                f"{stats['longest_word_chars']} characters (URLs, e-mail addresses), its longest sentence "
                f"{stats['longest_sentence_words']} words, so b32 in file order pays for padding that b1 and "
                "b32-sorted mostly avoid."
            )
        if results.get("batch1_sentences"):
            text += f" b1 ran on the first {results['batch1_sentences']:,} sentences only (time)."
    if results.get("accuracy"):
        text += (
            " Accuracy: each path's b32 answers, UAS/LAS over all words (punctuation included, full relations), "
            "accuracy of the predicted UPOS; *_answers_same: the other settings gave the same trees and tags."
        )
    if results.get("memory"):
        text += (
            " Peak RSS: a process of its own per path that loads it and parses the sentences at batch 32, "
            "in file order (loaded_rss_mb: its peak once loaded, before parsing; torch_int8's includes the fp32 "
            "model quantize_for_cpu copies from)."
        )
    if results.get("cold_start"):
        text += (
            f" Cold start: process start to the first stdout line, median of {results['cold_start_repeats']} "
            "after one untimed run (warm file cache; it also gives max_rss_mb), the first EWT test sentence as "
            "raw text. allennlp predict runs with `--silent --output-file /dev/stdout` (with --silent and no "
            "output file it exits after loading, before predicting); green-nlp parse on the exported folder with "
            "--threads 1. In the training venv spaCy's thinc imports torch when it is installed, so green-nlp "
            "parse on raw text loads torch there (import_spacy prints whether it did)."
        )
    if any("(runtime venv)" in name for name in results.get("cold_start") or {}) or "runtime_venv_gb" in (
        results.get("sizes") or {}
    ):
        text += (
            " Runtime venv: the venv given with --runtime-venv, green_nlp installed there by `pip install .` "
            "(numpy, onnxruntime, spaCy, conllu, ufal.chu-liu-edmonds, tqdm; no torch, no allennlp)."
        )
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--archive", type=Path, default=DEFAULT_ARCHIVE, help="a raw-text green_biaffine_parser archive"
    )
    parser.add_argument(
        "--folder",
        type=Path,
        default=None,
        help="its green-export folder with both graphs (default: export into a temporary folder)",
    )
    parser.add_argument(
        "--test-file",
        type=Path,
        default=None,
        help="CoNLL-U test file (default: $GREEN_NLP_DATA/ud/UD_English-EWT/en_ewt-ud-test.conllu)",
    )
    parser.add_argument("--sentences", type=int, default=None, help="the first N test sentences (default: all)")
    parser.add_argument(
        "--batch1-sentences", type=int, default=None, help="time batch 1 on the first N of them only (default: all)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="timed passes per path and batch size")
    parser.add_argument("--cold-start-repeats", type=int, default=3)
    parser.add_argument("--runtime-venv", type=Path, default=None, help="a runtime-only venv whose size to report")
    parser.add_argument(
        "--classifier",
        nargs=2,
        type=Path,
        default=None,
        metavar=("ARCHIVE", "FOLDER"),
        help="also time the cold start of an n-gram DAN: its archive (allennlp predict) and its "
        "exported folder (green-nlp classify), e.g. pretrained/en-sst2-sentiment",
    )
    parser.add_argument(
        "--parts", nargs="+", choices=PARTS, default=list(PARTS), help="what to measure (speed includes accuracy)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the saved runtime.json's other parts and replace only the --parts measured now "
        "(each part records the date and load of its own run)",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="rewrite runtime.md (and the JSON's note) from the saved runtime.json, measuring nothing",
    )
    parser.add_argument("--memory-child", choices=FORMS, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    test_file = args.test_file
    if test_file is None:
        from green_nlp.data_paths import DATA_ENV_VAR, data_path

        test_file = data_path(*TEST_FILE_PARTS)
        if not test_file.is_file():
            sys.exit(
                f"UD English-EWT test file not found at {test_file}: set {DATA_ENV_VAR} to the shared data "
                "folder (holding ud/UD_English-EWT/) or pass --test-file"
            )
    elif not test_file.is_file():
        sys.exit(f"test file not found: {test_file}")
    if args.report_only:
        results = json.loads((args.out / "runtime.json").read_text())
        if "test_data" not in results:  # saved before the script recorded it: the same sentences, read again
            results["test_data"] = data_stats(read_gold(test_file, results["test_sentences"]))
        write_report(args.out, results)
        return
    if args.memory_child:
        memory_child(args.memory_child, args.archive, args.folder, test_file, args.sentences)
        return
    if not args.archive.is_file():
        sys.exit(f"archive not found: {args.archive} (train it, or pass --archive)")
    with tempfile.TemporaryDirectory(prefix="green_runtime_bench_") as temporary:
        results = run(args, test_file, Path(temporary))
    if args.merge and (args.out / "runtime.json").exists():
        results = merged(json.loads((args.out / "runtime.json").read_text()), results)
    write_report(args.out, results)


PART_KEYS = {
    "cold_start": ("cold_start", "cold_start_ratios"),
    "speed": ("speed", "speed_ratios", "accuracy", "int8_agreement"),
    "memory": ("memory",),
    "sizes": ("sizes",),
}


def merged(saved: Dict[str, Any], fresh: Dict[str, Any]) -> Dict[str, Any]:
    """The saved results with the parts measured now replaced by this run's; each part keeps the date
    and load average of the run that measured it (`part_runs`)."""
    saved_runs = saved.get("part_runs") or {
        part: {"date": saved.get("date"), "load_average": saved.get("load_average")} for part in saved.get("parts", [])
    }
    combined = dict(saved)
    for part in fresh["parts"]:
        for key in PART_KEYS[part]:
            if key in fresh:
                combined[key] = fresh[key]
        saved_runs[part] = {"date": fresh["date"], "load_average": fresh["load_average"]}
    combined["date"], combined["load_average"] = fresh["date"], fresh["load_average"]
    combined["parts"] = sorted(set(saved.get("parts", [])) | set(fresh["parts"]), key=PARTS.index)
    combined["part_runs"] = saved_runs
    return combined


def write_report(out: Path, results: Dict[str, Any]) -> None:
    """Save runtime.json (every figure) and runtime.md, with the note and aims made afresh; print the Markdown."""
    results["aims"] = aims(results)
    results["note"] = note(results)
    out.mkdir(parents=True, exist_ok=True)
    (out / "runtime.json").write_text(json.dumps(results, indent=2) + "\n")
    markdown = render(results)
    (out / "runtime.md").write_text(markdown)
    print(markdown)


def run(args: argparse.Namespace, test_file: Path, temporary: Path) -> Dict[str, Any]:
    load_start = os.getloadavg()
    import green_nlp

    for name, value in ONE_THREAD_ENV.items():
        os.environ.setdefault(name, value)
    gold = read_gold(test_file, args.sentences)
    words = [s["words"] for s in gold]
    folder = args.folder
    if folder is None:
        from green_nlp.export import export_archive

        folder = export_archive(args.archive, temporary / "export")
        print(f"exported {args.archive} to a temporary folder", file=sys.stderr)
    results: Dict[str, Any] = {
        "benchmark": "runtime",
        "archive": shown_path(args.archive),
        "test_file": shown_path(test_file) if args.test_file else "/".join(TEST_FILE_PARTS[1:]),
        "test_sentences": len(gold),
        "test_tokens": sum(len(w) for w in words),
        "threads": 1,
        "repeats": args.repeats,
        "cold_start_repeats": args.cold_start_repeats,
        "batch1_sentences": args.batch1_sentences,
        "hardware": hardware_description(),
        "parts": list(args.parts),
        "test_data": data_stats(gold),
        "green_nlp_from_this_clone": Path(green_nlp.__file__).resolve().is_relative_to(REPO_ROOT),
    }
    if "cold_start" in args.parts:
        one_line = temporary / "one_line.txt"
        one_line.write_text((gold[0]["text"] or " ".join(words[0])) + "\n", encoding="utf-8")
        print("cold start ...", file=sys.stderr)
        classifier = tuple(path.resolve() for path in args.classifier) if args.classifier else None
        commands = cold_start_commands(args.archive, folder, one_line, args.runtime_venv, classifier)
        results["cold_start"] = cold = cold_start(commands, args.cold_start_repeats)
        results["cold_start_ratios"] = cold_start_ratios(cold)
    if "speed" in args.parts:
        print("speed ...", file=sys.stderr)
        paths = load_paths(args.archive, folder)
        rows, answers = measure_speed(paths, words, args.repeats, args.batch1_sentences)
        results["speed"] = rows
        results["speed_ratios"] = speed_ratios(rows)
        results["accuracy"] = accuracy(gold, answers)
        from green_nlp.runtime.parser_agreement import int8_agreement

        results["int8_agreement"] = int8_agreement(folder, [(w, None) for w in words], batch_size=32, threads=1)
    if "memory" in args.parts:
        print("memory ...", file=sys.stderr)
        results["memory"] = peak_memory(FORMS, args.archive, folder, test_file, args.sentences)
    if "sizes" in args.parts:
        results["sizes"] = disk_sizes(args.archive, folder, args.runtime_venv)
    results["load_average"] = {"start": list(load_start), "end": list(os.getloadavg())}
    results["date"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return results


if __name__ == "__main__":
    main()
