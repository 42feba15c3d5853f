"""Load test of `green-nlp serve` on loopback: requests/s and latency at 1, 8 and 32 concurrent
clients, for the shipped parser and a DAN classifier, with micro-batching and without (max batch 1).

    python -m benchmarks.serve.load                    # about 5 minutes on 2 busy cores
    python -m benchmarks.serve.load --seconds 3 --levels 1 8 32
    python -m benchmarks.serve.load --baseline-rev 155ab37 --models parser   # against an older server

Each (model, batching) pair gets a fresh server (`green-nlp serve --threads 1`); each client sends
one text per request ({"text": ...}), the next as soon as the answer arrives, for `--seconds` after
a one-second warm-up; both modes' servers run side by side and take turns, each level twice per
mode, the better run kept. Texts: UD English-EWT test sentences for the parser and SST-2 dev sentences
for the classifier ($GREEN_NLP_DATA; the repository's fixtures where absent). The classifier is the
shipped en-sst2-sentiment; without it, runs/dan_sst2_scratch/model.tar.gz exported with
`green-nlp green-export` when that archive exists, else a DAN trained on the fixtures (the results say
which). The load clients (aiohttp, asyncio) run
in this process on the same machine as the server. Also measured: how often a parse changes when
a sentence shares its model call with others (a check: the deterministic int8 graphs use fixed scales).
The server's and the clients' CPU time per request are measured too: on a shared machine the
requests/s depend on what else runs, the CPU per request much less. Memory: the server's VmRSS and
VmHWM (peak) from /proc before any load and after every run. With `--baseline-rev REV`, the parser is
also served by revision REV's code (checked out into a temporary git worktree, removed afterwards)
next to the current code, the same model folder, texts and levels for both, the two servers taking
turns: p50/p99 and requests/s of both and their ratio, in the same run. Results:
benchmarks/results/serve_load.{json,md}.
"""

import argparse
import asyncio
import csv
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Optional

import aiohttp
import httpx
import numpy

from benchmarks.common import REPO, RESULTS, hardware_description, write_results
from green_nlp.serve.launcher import ServerProcess
from green_nlp.settings import data_path

PARSER = "en-ewt-parser"
DAN_ARCHIVE = REPO / "runs" / "dan_sst2_scratch" / "model.tar.gz"
SHIPPED_CLASSIFIER = REPO / "pretrained" / "en-sst2-sentiment"
MODES = {"micro-batching": ["--max-batch", "32", "--max-wait-ms", "5"], "batch 1": ["--max-batch", "1"]}
AIMS = {"speedup": 4.0, "p99_ms": 250.0, "p99_vs_baseline": 1.10}
MODEL_CHOICES = ("parser", "dan")


# ------------------------------------------------------------------------------------ inputs
def parser_texts(limit: int) -> tuple[list[str], str]:
    path = data_path("ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    if path.is_file():
        lines = path.read_text(encoding="utf-8").splitlines()
        texts = [line.split("=", 1)[1].strip() for line in lines if line.startswith("# text =")]
        return texts[:limit], "UD English-EWT test sentences"
    texts = [line.strip() for line in (REPO / "fixtures" / "raw_text.txt").read_text().splitlines() if line.strip()]
    return texts, "fixtures/raw_text.txt (EWT not found)"


def classifier_texts(limit: int) -> tuple[list[str], str]:
    for path, source in (
        (data_path("cls", "sst2", "dev.tsv"), "SST-2 dev sentences"),
        (REPO / "fixtures" / "dan" / "sst2_dev.tsv", "fixtures/dan/sst2_dev.tsv (SST-2 not found)"),
    ):
        if path.is_file():
            with open(path, encoding="utf-8", newline="") as handle:
                rows = list(csv.DictReader(handle, delimiter="\t"))
            return [row["content"] for row in rows][:limit], source
    raise FileNotFoundError("no SST-2 dev file, not even the fixture")


def green_nlp_command(*args: str) -> None:
    """`green-nlp ARGS` (the AllenNLP side: export, train) in a child process: this one stays light."""
    result = subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", *args], cwd=REPO, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        sys.exit(f"green-nlp {args[0]} failed:\n{result.stderr[-3000:]}")


def classifier_folder(work: Path) -> tuple[Path, str]:
    """The exported DAN to serve, and what it is: the shipped sentiment model when present."""
    if (SHIPPED_CLASSIFIER / "green_model.json").is_file():
        return SHIPPED_CLASSIFIER, "the shipped en-sst2-sentiment (int8, 50,000 n-grams, distilled)"
    archive = DAN_ARCHIVE
    what = f"{DAN_ARCHIVE.relative_to(REPO)} (SST-2, trained from scratch), exported by green-export"
    if not archive.is_file():
        run = work / "fixture_dan"
        green_nlp_command("train", str(REPO / "fixtures" / "dan" / "dan_experiment.jsonnet"), "-s", str(run), "-f")
        archive, what = run / "model.tar.gz", "a DAN trained on the fixtures (runs/dan_sst2_scratch not found)"
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    folder = work / f"dan_{digest[:12]}"
    if not (folder / "green_model.json").is_file():
        green_nlp_command("green-export", str(archive), str(folder))
    return folder, what


# -------------------------------------------------------------------------------------- load
async def client_loop(
    client: aiohttp.ClientSession,
    path: str,
    texts: list[str],
    offset: int,
    stop_at: float,
    record_from: float,
    latencies: list[float],
    statuses: dict[str, int],
) -> None:
    index = offset
    while time.perf_counter() < stop_at:
        text = texts[index % len(texts)]
        index += 1
        started = time.perf_counter()
        try:
            async with client.post(path, json={"text": text}) as response:
                await response.read()
                status = str(response.status)
        except aiohttp.ClientError as error:
            status = type(error).__name__
        if started >= record_from:
            latencies.append(time.perf_counter() - started)
            statuses[status] = statuses.get(status, 0) + 1


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int) -> dict[str, float]:
    """Resident memory now (VmRSS) and at its peak so far (VmHWM) of a process, in MB (Linux /proc)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {key: round(int(fields[name].split()[0]) / 1024, 1) for key, name in (("rss", "VmRSS"), ("hwm", "VmHWM"))}


async def load_level(
    url: str, path: str, texts: list[str], clients: int, seconds: float, server_pid: int
) -> dict[str, Any]:
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(url, connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as client:
        start = time.perf_counter()
        record_from, stop_at = start + 1.0, start + 1.0 + seconds
        tasks = [
            asyncio.ensure_future(client_loop(client, path, texts, i * 7, stop_at, record_from, latencies, statuses))
            for i in range(clients)
        ]
        await asyncio.sleep(max(0.0, record_from - time.perf_counter()))
        server_cpu, client_cpu = cpu_seconds(server_pid), time.process_time()
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - record_from
        server_cpu, client_cpu = cpu_seconds(server_pid) - server_cpu, time.process_time() - client_cpu
    ms = numpy.array(latencies) * 1000
    errors = sum(count for status, count in statuses.items() if status != "200")
    return {
        "clients": clients,
        "seconds": round(elapsed, 2),
        "requests": len(latencies),
        "requests_per_s": len(latencies) / elapsed,
        "p50_ms": float(numpy.percentile(ms, 50)),
        "p95_ms": float(numpy.percentile(ms, 95)),
        "p99_ms": float(numpy.percentile(ms, 99)),
        "errors": errors,
        "5xx": sum(count for status, count in statuses.items() if status.startswith("5")),
        "statuses": statuses,
        "server_cpu_ms_per_request": 1000 * server_cpu / max(1, len(latencies)),
        "client_cpu_ms_per_request": 1000 * client_cpu / max(1, len(latencies)),
    }


def batch_stats(url: str, name: str, task: str) -> dict[str, Any]:
    return httpx.get(f"{url}/health", timeout=30).json()["models"][name][task]


def measure(
    server: ServerProcess, name: str, task: str, texts: list[str], clients: int, seconds: float
) -> dict[str, Any]:
    """One load run at `clients` concurrent clients, with the server's mean batch and memory after it."""
    before = batch_stats(server.url, name, task)
    row = asyncio.run(load_level(server.url, f"/v1/{name}/{task}", texts, clients, seconds, server.pid))
    after = batch_stats(server.url, name, task)
    row["rss_mb_after"] = httpx.get(f"{server.url}/health", timeout=30).json()["rss_mb"]
    row["peak_rss_mb_after"] = memory_mb(server.pid)["hwm"]
    calls = after["batches"] - before["batches"]
    row["mean_batch"] = (after["texts"] - before["texts"]) / calls if calls else 0.0
    return row


def long_text_memory(server: ServerProcess, texts: list[str], words: int = 600, count: int = 16) -> dict[str, Any]:
    """The server's memory after one request of `count` long sentences (`words` words each, made by
    joining the test texts with their sentence ends turned into commas), then 20 requests of 32 short
    texts: what the largest batch shapes leave resident."""
    pool = " ".join(text.translate(str.maketrans(".!?;", ",,,,")) for text in texts).split()
    long = [" ".join(pool[i * words : (i + 1) * words]) + "." for i in range(count)]
    before = memory_mb(server.pid)
    answer = httpx.post(f"{server.url}/v1/{PARSER}/parse", json={"texts": long}, timeout=600).json()
    after_long = memory_mb(server.pid)
    for start in range(0, 640, 32):
        httpx.post(f"{server.url}/v1/{PARSER}/parse", json={"texts": texts[start : start + 32]}, timeout=60)
    return {
        "request": f"{count} sentences of {words} words in one request, then 20 requests of 32 test texts",
        "errors": answer["errors"],
        "rss_mb_before": before["rss"],
        "rss_mb_after_long": after_long["rss"],
        "peak_rss_mb": after_long["hwm"],
        "rss_mb_after_short": memory_mb(server.pid)["rss"],
    }


def run_model(
    model: str, name: str, task: str, texts: list[str], levels: list[int], seconds: float, rounds: int
) -> dict[str, Any]:
    """Both modes' servers up at once; each level measured `rounds` times per mode, the modes taking
    turns (A B, then B A), and each mode's best round kept: a busy spell on the shared machine then
    falls on both modes instead of on one."""
    with (
        ServerProcess([model], ["--threads", "1", *MODES["micro-batching"]]) as batched,
        ServerProcess([model], ["--threads", "1", *MODES["batch 1"]]) as single,
    ):
        servers = {"micro-batching": batched, "batch 1": single}
        runs: dict[str, Any] = {
            mode: {"rss_mb_start": httpx.get(f"{server.url}/health", timeout=30).json()["rss_mb"], "levels": []}
            for mode, server in servers.items()
        }
        for clients in levels:
            best: dict[str, dict[str, Any]] = {}
            for round_ in range(rounds):
                for mode in list(servers) if round_ % 2 == 0 else list(servers)[::-1]:
                    row = measure(servers[mode], name, task, texts, clients, seconds)
                    if mode not in best or row["requests_per_s"] > best[mode]["requests_per_s"]:
                        best[mode] = row
            for mode, row in best.items():
                runs[mode]["levels"].append(row)
                print(
                    f"{name:>16} {mode:>14} {clients:>3} clients: {row['requests_per_s']:8.1f} req/s  "
                    f"p50 {row['p50_ms']:6.1f}  p99 {row['p99_ms']:7.1f} ms  mean batch {row['mean_batch']:.1f}  "
                    f"server CPU {row['server_cpu_ms_per_request']:.2f} ms/request  errors {row['errors']}",
                    flush=True,
                )
        for mode, server in servers.items():
            if task == "parse":
                runs[mode]["long_texts"] = long_text_memory(server, texts)
            health = httpx.get(f"{server.url}/health", timeout=30).json()
            runs[mode].update(
                {
                    "rss_mb_end": health["rss_mb"],
                    "responses": health["responses"],
                    "heavy_modules": health["heavy_modules"],
                    "peak_rss_mb_end": memory_mb(server.pid)["hwm"],
                }
            )
    return runs


# ------------------------------------------------------------------- an older revision's server
@contextmanager
def revision_worktree(rev: str) -> Iterator[tuple[Path, str]]:
    """REV checked out into a temporary detached git worktree (its path and full commit id), removed
    on leaving: the older server's code, without touching this checkout."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=REPO, capture_output=True, text=True, check=False
    )
    if commit.returncode != 0:
        raise SystemExit(f"--baseline-rev {rev}: not a commit of this repository ({commit.stderr.strip()})")
    parent = Path(tempfile.mkdtemp(prefix="green_nlp_baseline_"))
    tree = parent / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(tree), commit.stdout.strip()], cwd=REPO, check=True
    )
    try:
        yield tree, commit.stdout.strip()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO, check=False)
        shutil.rmtree(parent, ignore_errors=True)


def revision_env(tree: Path) -> dict[str, str]:
    """The environment that makes a child import green_nlp from `tree`: first on PYTHONPATH, and
    PYTHONSAFEPATH so that `python -m` does not put the working directory (this checkout) before it."""
    return {"PYTHONPATH": str(tree), "PYTHONSAFEPATH": "1"}


def child_check(env: dict[str, str], folder: Path) -> dict[str, Any]:
    """Where a child with `env` imports green_nlp from, and whether that code loads `folder` (an older
    runtime may not read a newer folder). The server is started the same way (interpreter, cwd, env)."""
    script = (
        "import sys, green_nlp\n"
        "print(green_nlp.__file__, flush=True)\n"
        "from green_nlp.runtime import load\n"
        "load(sys.argv[1], threads=1).parse('The cat sat on the mat.')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(folder)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **env},
    )
    lines = result.stdout.splitlines()
    return {
        "green_nlp_file": lines[0] if lines else None,
        "loads": result.returncode == 0,
        "error": result.stderr[-800:],
    }


def baseline_comparison(rev: str, texts: list[str], levels: list[int], seconds: float, rounds: int) -> dict[str, Any]:
    """The parser served by the current code and by revision `rev`, micro-batching on both, the two
    servers up side by side and taking turns at each level (A B, then B A), each side's best round kept."""
    with revision_worktree(rev) as (tree, commit), tempfile.TemporaryDirectory(prefix="green_nlp_model_") as copy:
        shared = Path(copy) / PARSER
        shutil.copytree(resolve_parser_folder(), shared)
        env = revision_env(tree)
        check = child_check(env, shared)
        if check["green_nlp_file"] is None or not Path(check["green_nlp_file"]).is_relative_to(tree):
            raise SystemExit(f"--baseline-rev {rev}: the child imported green_nlp from {check['green_nlp_file']}")
        if check["loads"]:
            folders = {"current": shared, "baseline": shared}
            model_note = f"both sides serve the same folder: a copy of the current {PARSER}"
        else:  # the older runtime cannot read today's folder: each revision serves its own
            folders = {"current": shared, "baseline": tree / "pretrained" / PARSER}
            model_note = (
                f"{rev}'s code cannot load the current {PARSER} ({check['error'].strip().splitlines()[-1:]}); "
                "each revision serves its own shipped folder"
            )
        options = ["--threads", "1", *MODES["micro-batching"]]
        with (
            ServerProcess([folders["current"]], options) as current,
            ServerProcess([folders["baseline"]], options, env=env) as baseline,
        ):
            servers = {"current": current, "baseline": baseline}
            memory_start = {side: memory_mb(server.pid) for side, server in servers.items()}
            rows = []
            for clients in levels:
                best: dict[str, dict[str, Any]] = {}
                for round_ in range(rounds):
                    for side in list(servers) if round_ % 2 == 0 else list(servers)[::-1]:
                        row = measure(servers[side], PARSER, "parse", texts, clients, seconds)
                        if side not in best or row["requests_per_s"] > best[side]["requests_per_s"]:
                            best[side] = row
                rows.append({"clients": clients, **best, **ratios(best["current"], best["baseline"])})
                print(
                    f"baseline {rev} {clients:>3} clients: current {best['current']['requests_per_s']:.1f} req/s "
                    f"p99 {best['current']['p99_ms']:.1f} ms; {rev} {best['baseline']['requests_per_s']:.1f} req/s "
                    f"p99 {best['baseline']['p99_ms']:.1f} ms",
                    flush=True,
                )
    return {
        "rev": rev,
        "commit": commit,
        "model": model_note,
        "baseline_green_nlp": f"{rev}'s worktree ({Path(check['green_nlp_file']).relative_to(tree)})",
        "options": " ".join(options),
        "rss_mb_start": {side: memory["rss"] for side, memory in memory_start.items()},
        "levels": rows,
    }


def resolve_parser_folder() -> Path:
    from green_nlp.runtime import resolve_model

    return Path(resolve_model(PARSER))


def ratios(current: dict[str, Any], baseline: dict[str, Any]) -> dict[str, float]:
    """current / baseline for the latency percentiles and requests/s (p99 ratio 1.05: 5 % slower)."""
    return {
        f"{key}_ratio": round(current[key] / baseline[key], 3) if baseline[key] else float("nan")
        for key in ("p50_ms", "p99_ms", "requests_per_s")
    }


# ------------------------------------------------------------------------- batch dependence
def batch_agreement(texts: list[str]) -> dict[str, Any]:
    """Share of words whose head and label are the same when each sentence is parsed alone and in
    micro-batches of 32 texts as the server cuts them: 100 % with deterministic int8 graphs (fixed
    activation scales); per-call dynamic quantization used to change a few words in 1000."""
    from green_nlp.runtime import load
    from green_nlp.serve.parser_batching import parse_texts

    nlp = load(PARSER, threads=1)
    alone = [nlp.parse(text).to_json() for text in texts]
    together = [
        doc.to_json() for start in range(0, len(texts), 32) for doc in parse_texts(nlp, texts[start : start + 32])
    ]
    same = total = 0
    for doc_alone, doc_together in zip(alone, together):
        for a, b in zip(doc_alone["sentences"], doc_together["sentences"]):
            same += sum(x == y for x, y in zip(zip(a["heads"], a["deprels"]), zip(b["heads"], b["deprels"])))
            total += len(a["heads"])
    return {
        "sentences": len(texts),
        "words": total,
        "same_head_and_label": same / total if total else None,
        "identical_texts": sum(a == b for a, b in zip(alone, together)),
    }


# ------------------------------------------------------------------- the model alone, no HTTP
def model_alone(model: str, task: str, texts: list[str], rounds: int = 3) -> dict[str, Any]:
    """Texts/s of the server's own model call (`ServedModel.predictor`), in this process and on one
    thread, one text per call against calls of 32: the most micro-batching can save on model time.
    When the model alone gains little from batch 32, so does serving, whatever the batcher does."""
    from green_nlp.serve.models import load_models

    served = next(iter(load_models([model], threads=1).values()))
    predict = served.predictor(task)
    predict(texts[:32])  # warm-up
    best = {"batch 1": 0.0, "batch 32": 0.0}
    for _ in range(rounds):
        started = time.perf_counter()
        for text in texts:
            predict([text])
        best["batch 1"] = max(best["batch 1"], len(texts) / (time.perf_counter() - started))
        started = time.perf_counter()
        for start in range(0, len(texts), 32):
            predict(texts[start : start + 32])
        best["batch 32"] = max(best["batch 32"], len(texts) / (time.perf_counter() - started))
    return {
        "texts": len(texts),
        "texts_per_s_batch_1": round(best["batch 1"], 1),
        "texts_per_s_batch_32": round(best["batch 32"], 1),
        "batch_32_over_batch_1": round(best["batch 32"] / best["batch 1"], 2),
    }


# ---------------------------------------------------------------------------------- report
def aims(results: dict[str, Any], levels: list[int]) -> dict[str, Any]:
    top = max(levels)
    verdicts: dict[str, Any] = {}
    for name, modes in results["models"].items():
        batched = next(r for r in modes["micro-batching"]["levels"] if r["clients"] == top)
        single = next(r for r in modes["batch 1"]["levels"] if r["clients"] == top)
        speedup = batched["requests_per_s"] / single["requests_per_s"]
        growth = max(run["rss_mb_end"] - run["rss_mb_start"] for run in modes.values())
        cpu_ratio = single["server_cpu_ms_per_request"] / batched["server_cpu_ms_per_request"]
        verdicts[name] = {
            f"speedup_at_{top}_clients": round(speedup, 2),
            "speedup_met": speedup >= AIMS["speedup"],
            f"server_cpu_per_request_ratio_at_{top}_clients": round(cpu_ratio, 2),
            f"p99_ms_at_{top}_clients": round(batched["p99_ms"], 1),
            "p99_met": batched["p99_ms"] < AIMS["p99_ms"],
            "5xx": sum(r["5xx"] for run in modes.values() for r in run["levels"]),
            "rss_growth_mb": round(growth, 1),
        }
    baseline = results.get("baseline")
    if baseline:
        row = next(r for r in baseline["levels"] if r["clients"] == top)
        verdicts[f"{PARSER} against {baseline['rev']}"] = {
            f"p99_ratio_at_{top}_clients": row["p99_ms_ratio"],
            "p99_vs_baseline_met": row["p99_ms_ratio"] <= AIMS["p99_vs_baseline"],
        }
    return verdicts


def parse_args(argv: Optional[list[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="measured seconds per concurrency level")
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 8, 32], help="concurrent clients")
    parser.add_argument("--rounds", type=int, default=2, help="runs per level and mode, the best kept")
    parser.add_argument("--texts", type=int, default=2000, help="texts per model, sent round-robin")
    parser.add_argument(
        "--models", nargs="+", choices=MODEL_CHOICES, default=list(MODEL_CHOICES), help="which models to serve"
    )
    parser.add_argument(
        "--baseline-rev",
        default=None,
        metavar="REV",
        help="also serve the parser with revision REV's code (a temporary git worktree) next to the current code",
    )
    parser.add_argument(
        "--work-dir",
        type=Path,
        default=REPO / "runs" / "serve_load",
        help="where the exported classifier is kept between runs",
    )
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.texts < 1 or min(args.levels) < 1:
        parser.error("--seconds, --rounds, --texts and every --levels value must be positive")
    if args.baseline_rev is not None and not args.baseline_rev.strip():
        parser.error("--baseline-rev: give a revision (a commit id, tag or branch)")
    return args


def main() -> None:
    args = parse_args()
    args.work_dir.mkdir(parents=True, exist_ok=True)
    started, load_before = time.time(), os.getloadavg()

    parse_texts, parse_source = parser_texts(args.texts)
    plan = [(PARSER, PARSER, "parse", parse_texts)] if "parser" in args.models else []
    texts_used = {PARSER: parse_source} if plan else {}
    dan_what = None
    if "dan" in args.models:
        classify_texts, texts_used["classifier"] = classifier_texts(args.texts)
        dan_folder, dan_what = classifier_folder(args.work_dir)
        plan.append((str(dan_folder), dan_folder.name, "classify", classify_texts))
    results: dict[str, Any] = {
        "machine": hardware_description() + "; server and load clients share these CPUs with other work",
        "load_average_before": [round(x, 2) for x in load_before],
        "setup": {
            "server": "green-nlp serve --threads 1 (one onnxruntime thread per model call)",
            "modes": {mode: " ".join(options) for mode, options in MODES.items()},
            "request": 'one text per request, {"text": ...}; each client sends its next request on the answer',
            "seconds_per_level": args.seconds,
            "warm_up_s": 1.0,
            "rounds": args.rounds,
            "client": f"aiohttp {aiohttp.__version__}, asyncio",
        },
        "texts": texts_used,
        "classifier": dan_what,
        "models": {},
    }
    for model, name, task, texts in plan:
        label = PARSER if name == PARSER else "DAN classifier"
        results["models"][label] = run_model(model, name, task, texts, args.levels, args.seconds, args.rounds)
        results.setdefault("model_alone", {})[label] = model_alone(model, task, texts[:512])
    if args.baseline_rev:
        results["baseline"] = baseline_comparison(
            args.baseline_rev, parse_texts, args.levels, args.seconds, args.rounds
        )
    results["aims"] = aims(results, args.levels)
    results["batched_vs_alone_parses"] = batch_agreement(parse_texts[:256])
    results["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    results["wall_s"] = round(time.time() - started, 1)
    write_report(results, args.output_dir)


def write_report(results: dict[str, Any], out_dir: Path) -> None:
    rows: dict[str, dict[str, Any]] = {}
    for label, modes in results["models"].items():
        for mode, run in modes.items():
            for level in run["levels"]:
                rows[f"{label}, {mode}, {level['clients']} clients"] = {
                    **level,
                    "RSS start → end (MB)": f"{run['rss_mb_start']:.0f} → {run['rss_mb_end']:.0f}",
                }
    baseline: dict[str, Any] = results.get("baseline") or {}
    for row in baseline.get("levels", []):
        for side, name in (("current", "current code"), ("baseline", baseline["rev"])):
            rows[f"{PARSER}, {name}, micro-batching, {row['clients']} clients"] = {
                **row[side],
                "current / baseline p99": row["p99_ms_ratio"],
                "current / baseline req/s": row["requests_per_s_ratio"],
            }
    columns = [
        "requests_per_s",
        "p50_ms",
        "p95_ms",
        "p99_ms",
        "mean_batch",
        "server_cpu_ms_per_request",
        "client_cpu_ms_per_request",
        "errors",
        "5xx",
        "rss_mb_after",
        "peak_rss_mb_after",
        "RSS start → end (MB)",
        "current / baseline p99",
        "current / baseline req/s",
    ]
    verdict_lines = []
    for label, verdict in results["aims"].items():
        if "p99_vs_baseline_met" in verdict:
            ratio = next(v for k, v in verdict.items() if k.startswith("p99_ratio_at"))
            verdict_lines.append(
                f"- {label}: p99 of the current code / p99 of {baseline['rev'] if baseline else '?'} = {ratio:.3f} "
                f"at the most clients (aim <= {AIMS['p99_vs_baseline']:.2f}: "
                f"{'met' if verdict['p99_vs_baseline_met'] else 'not met'})"
            )
            continue
        speed = next(k for k in verdict if k.startswith("speedup_at"))
        p99 = next(k for k in verdict if k.startswith("p99_ms_at"))
        cpu = next(k for k in verdict if k.startswith("server_cpu_per_request_ratio"))
        verdict_lines.append(
            f"- {label}: micro-batching serves {verdict[speed]:.2f}x the requests/s of batch-1 serving "
            f"(aim >= {AIMS['speedup']:.0f}x: {'met' if verdict['speedup_met'] else 'not met'}); p99 "
            f"{verdict[p99]:.0f} ms (aim < {AIMS['p99_ms']:.0f} ms: {'met' if verdict['p99_met'] else 'not met'}); "
            f"{verdict['5xx']} 5xx; RSS grew by at most {verdict['rss_growth_mb']:.1f} MB over a server's run; "
            f"batch-1 serving spent {verdict[cpu]:.2f}x the server CPU per request"
        )
    ceiling_lines = [
        f"- {label}: {alone['texts_per_s_batch_1']:,.0f} texts/s one text per call, "
        f"{alone['texts_per_s_batch_32']:,.0f} in calls of 32: batching makes the model alone "
        f"{alone['batch_32_over_batch_1']:.2f}x faster"
        for label, alone in results.get("model_alone", {}).items()
    ]
    agreement = results["batched_vs_alone_parses"]
    setup = results["setup"]
    machine = (
        f"Machine: {results['machine']} (load average {results['load_average_before'][0]} before, "
        f"{results['load_average_after'][0]} after). {setup['server']}; clients: {setup['client']} in one "
        f"process on the same machine; {setup['request']}; {setup['seconds_per_level']:.0f} s measured per "
        f"run after a 1 s warm-up; the modes' servers side by side taking turns, each row the better of "
        f"{setup['rounds']} runs."
    )
    texts = (
        f"Texts: {results['texts'].get(PARSER, 'none')} (parser), {results['texts'].get('classifier', 'none')} "
        f"(classifier). Classifier: {results['classifier'] or 'not served in this run'}. mean_batch: texts per "
        "model call, from the server's /health."
    )
    memory = (
        "rss_mb_after: the server's resident memory after that row; peak_rss_mb_after: its peak so far "
        "(VmHWM); RSS start → end: over the server's whole run (after start-up, before any load, and after "
        "its last row)."
    )
    long_lines = [
        f"- {label}, {mode}: {run['long_texts']['rss_mb_before']:.0f} MB before, "
        f"{run['long_texts']['rss_mb_after_long']:.0f} after {run['long_texts']['request']} "
        f"({run['long_texts']['errors']} errors), {run['long_texts']['rss_mb_after_short']:.0f} after the short ones; "
        f"peak {run['long_texts']['peak_rss_mb']:.0f} MB"
        for label, modes in results["models"].items()
        for mode, run in modes.items()
        if "long_texts" in run
    ]
    if long_lines:
        long_lines = [
            "",
            "Long sentences, after the load rows (what the largest batch shapes leave resident):",
            *long_lines,
        ]
    baseline_lines = (
        [
            "",
            f"Against {baseline['rev']} ({baseline['commit'][:12]}): the parser served by that revision's code "
            f"(green_nlp imported from {baseline['baseline_green_nlp']}) next to the current code, "
            f"{baseline['options']} on both, the two servers taking turns at each level; {baseline['model']}.",
        ]
        if baseline
        else []
    )
    dependence = (
        f"Batch dependence: with the int8 parser, {100 * agreement['same_head_and_label']:.2f} % of "
        f"{agreement['words']:,} words keep their head and label when their sentence is parsed in a "
        f"micro-batch of 32 texts (as the server cuts it by length) instead of alone "
        f"({agreement['identical_texts']} of "
        f"{agreement['sentences']} sentences identical); the int8 graphs use fixed activation scales, so "
        "a micro-batch should change no answer, and this row checks it."
    )
    ceiling = (
        "The model alone, without HTTP (the server's own model call in one process, one thread, on "
        "the first 512 texts, best of 3): how much a batch of 32 can save on model time at all."
    )
    measured_alone = ["", ceiling, *ceiling_lines] if ceiling_lines else []  # absent from runs measured before it was
    note = "\n".join(
        [
            machine,
            texts,
            memory,
            *long_lines,
            *baseline_lines,
            "",
            "Aims:",
            *verdict_lines,
            *measured_alone,
            "",
            dependence,
            "",
            "Produced by `python -m benchmarks.serve.load`.",
        ]
    )
    write_results(out_dir, "serve_load", results, rows, columns, note, first_column="server")


if __name__ == "__main__":
    main()
