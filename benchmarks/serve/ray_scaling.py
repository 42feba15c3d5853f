"""Lines per second of `--ray` (1 and 2 local actors) against the one-process path, for MiniLM
teacher labeling (`green-label-teacher`) and dependency parsing (`green-predict`), with what Ray's
start-up costs (starting the instance, starting the actors and loading their models) apart.

    nice -n 5 python -m benchmarks.serve.ray_scaling                      # shipped parser / fixtures
    nice -n 5 python -m benchmarks.serve.ray_scaling --teacher runs/dan/sst2/teacher/model.tar.gz

Inputs: SST-2 dev sentences and UD English-EWT dev sentences (raw text) under $GREEN_NLP_DATA when
present, else the fixture sentences (repeated). Parser: runs/shipped/en_ewt_parser/model.tar.gz
when present, else the fixture parser (JSON input with gold UPOS). Teacher: `--teacher`, else
runs/shipped/en_sst2_teacher/model.tar.gz when present, else a MiniLM-L6 teacher fine-tuned for one
epoch on the fixture sentences here (speed does not depend on how well a teacher was trained).

Every row streams the same lines; the Ray rows' outputs are checked byte-identical to the
one-process output. Throughput is lines per wall-clock second once the models are loaded; the
one-process rows run with 1 torch thread (what one actor gets) and with every CPU. Results:
benchmarks/results/ray_scaling.{json,md}.
"""

import argparse
import io
import itertools
import json
import os
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import torch

import green_nlp
from benchmarks.common import REPO, RESULTS, hardware_description, write_results
from green_nlp.settings import data_path

FIXTURES = REPO / "fixtures"
SHIPPED_PARSER = REPO / "runs" / "shipped" / "en_ewt_parser" / "model.tar.gz"
SHIPPED_TEACHER = REPO / "runs" / "shipped" / "en_sst2_teacher" / "model.tar.gz"


def _cycle(items: list[str], count: int) -> list[str]:
    return list(itertools.islice(itertools.cycle(items), count))


def parse_input(folder: Path, count: int) -> tuple[str, Path, str, str]:
    """(archive, input file, predictor args, where the lines came from)."""
    from green_nlp.dataset_readers import read_conllu

    ewt = data_path("ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    path = folder / "parse.txt"
    if SHIPPED_PARSER.exists() and ewt.exists():
        texts = [
            line[len("# text = ") :]
            for line in ewt.read_text(encoding="utf-8").splitlines()
            if line.startswith("# text = ")
        ]
        path.write_text("\n".join(texts[:count]) + "\n", encoding="utf-8")
        return str(SHIPPED_PARSER), path, "", f"UD English-EWT dev, first {min(count, len(texts))} raw sentences"
    sentences = [
        json.dumps({"words": s.words, "upos": s.upos}) for s in read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu")
    ]
    path.write_text("\n".join(_cycle(sentences, count)) + "\n", encoding="utf-8")
    return (
        str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"),
        path,
        '{"output_format": "json"}',
        f"fixture sentences (JSON with gold UPOS) repeated to {count}",
    )


def teacher_input(count: int) -> tuple[list[Any], str]:
    from green_nlp.dataset_readers.text_classification import read_examples

    sst2 = data_path("cls", "sst2", "dev.tsv")
    if sst2.exists():
        examples = list(itertools.islice(read_examples(str(sst2)), count))
        return examples, f"SST-2 dev, first {len(examples)} sentences"
    examples = list(read_examples(str(FIXTURES / "dan" / "sst2_train.tsv")))
    return _cycle(examples, count), f"SST-2 fixture sentences repeated to {count}"


def teacher_archive(given: str, description: str, folder: Path) -> tuple[str, str]:
    if given:
        return given, description or Path(given).parent.name
    if SHIPPED_TEACHER.exists():
        return str(SHIPPED_TEACHER), "runs/shipped/en_sst2_teacher (MiniLM-L6)"
    from allennlp.commands.train import train_model_from_file

    dev = str(FIXTURES / "dan" / "sst2_dev.tsv")
    overrides = {
        "train_data_path": str(FIXTURES / "dan" / "sst2_train.tsv"),
        "validation_data_path": dev,
        "test_data_path": dev,
        "evaluate_on_test": False,
        "trainer.num_epochs": 1,
        "dataset_reader.max_examples": 16,
        "data_loader.batch_sampler.batch_size": 8,
    }
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        train_model_from_file(
            str(REPO / "training_configs" / "dan" / "teacher_sst2.jsonnet"),
            str(folder / "teacher"),
            overrides=json.dumps(overrides),
            force=True,
        )
    finally:
        os.chdir(cwd)
    return str(folder / "teacher" / "model.tar.gz"), "MiniLM-L6 teacher fine-tuned 1 epoch on fixture sentences"


def _row(lines: int, load: float, stream: float, identical: Any = None) -> dict[str, Any]:
    row = {
        "lines": lines,
        "load_s": round(load, 2),
        "stream_s": round(stream, 2),
        "lines_per_s": round(lines / stream, 1),
    }
    if identical is not None:
        row["identical_to_one_process"] = identical
    return row


def time_parsing(
    archive: str, path: Path, predictor_args: str, batch_size: int, actors: list[int], thread_counts: list[int]
) -> dict[str, dict[str, Any]]:
    from green_nlp.commands.green_predict import BulkPredictor, build_predictor, predictor_model
    from green_nlp.distributed_ray.lines import stream_lines
    from green_nlp.distributed_ray.options import RayOptions

    with open(path, encoding="utf-8") as handle:
        lines = sum(1 for _ in handle)
    rows, reference = {}, None
    for threads in thread_counts:
        torch.set_num_threads(threads)
        start = time.perf_counter()
        bulk = BulkPredictor(build_predictor(archive, predictor_args=predictor_args), batch_size)
        loaded = time.perf_counter()
        output = io.StringIO()
        bulk.run(path, output, progress=False)
        rows[f"one process, {threads} thread{'s' if threads > 1 else ''}"] = _row(
            lines, loaded - start, time.perf_counter() - loaded
        )
        reference = reference or output.getvalue()
    torch.set_num_threads(1)
    for count in actors:
        timings: dict[str, float] = {}
        output = io.StringIO()
        stream_lines(
            partial(predictor_model, archive, None, predictor_args, -1, "", 1),
            path,
            output,
            RayOptions(actors=count),
            batch_size,
            progress=False,
            timings=timings,
        )
        rows[f"Ray, {count} actor{'s' if count > 1 else ''}"] = _row(
            lines, timings["load"], timings["stream"], output.getvalue() == reference
        )
    return rows


def time_labeling(
    archive: str, examples: list[Any], batch_size: int, actors: list[int], thread_counts: list[int]
) -> dict[str, dict[str, Any]]:
    from green_nlp.commands.green_label_teacher import LocalTeacher
    from green_nlp.distributed_ray.options import RayOptions
    from green_nlp.distributed_ray.teacher import RayTeacher

    chunk = batch_size * 8  # label_corpus's chunks
    chunks = [examples[i : i + chunk] for i in range(0, len(examples), chunk)]

    def label_all(teacher: Any) -> tuple[float, list[list[float]]]:
        start = time.perf_counter()
        logits = [row for _, part in teacher.label(chunks, batch_size) for row in part]
        return time.perf_counter() - start, logits

    rows, reference = {}, None
    for threads in thread_counts:
        torch.set_num_threads(threads)
        start = time.perf_counter()
        teacher = LocalTeacher(archive)
        load = time.perf_counter() - start
        seconds, logits = label_all(teacher)
        rows[f"one process, {threads} thread{'s' if threads > 1 else ''}"] = _row(len(examples), load, seconds)
        reference = reference or logits
    torch.set_num_threads(1)
    for count in actors:
        with RayTeacher(archive, {}, RayOptions(actors=count)) as teacher:
            seconds, logits = label_all(teacher)
        close = [max(abs(a - b) for a, b in zip(x, y)) for x, y in zip(logits, reference)]
        rows[f"Ray, {count} actor{'s' if count > 1 else ''}"] = _row(
            len(examples), teacher.load_seconds, seconds, max(close) < 1e-5
        )
    return rows


def best_rows(runs: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Each row's fastest run (a few seconds each, so one busy spell would decide a single run);
    an output counts as identical only when it was identical in every run."""
    rows = {}
    for name in runs[0]:
        tries = [run[name] for run in runs]
        rows[name] = dict(max(tries, key=lambda row: row["lines_per_s"]), repeats=len(tries))
        if "identical_to_one_process" in rows[name]:
            rows[name]["identical_to_one_process"] = all(row["identical_to_one_process"] for row in tries)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teacher", default="", help="a teacher classifier archive (default: see above)")
    parser.add_argument("--parse-lines", type=int, default=600)
    parser.add_argument("--label-lines", type=int, default=400)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--actors", default="1,2", help="actor counts to time")
    parser.add_argument(
        "--threads",
        default=f"1,{os.cpu_count() or 1}",
        help="torch thread counts of the one-process rows (1 is the baseline)",
    )
    parser.add_argument("--teacher-description", default="", help="what --teacher is, for the results")
    parser.add_argument("--repeats", type=int, default=3, help="runs of every row; each row's fastest is kept")
    parser.add_argument("--note", default="", help="what else ran on the machine meanwhile (goes into the results)")
    args = parser.parse_args()
    import ray

    green_nlp.register()
    actors = [int(n) for n in args.actors.split(",")]
    thread_counts = sorted({int(n) for n in args.threads.split(",")} | {1})
    folder = Path(tempfile.mkdtemp(prefix="ray_scaling_"))
    teacher, teacher_name = teacher_archive(args.teacher, args.teacher_description, folder)
    examples, teacher_source = teacher_input(args.label_lines)
    parse_archive, parse_path, predictor_args, parse_source = parse_input(folder, args.parse_lines)

    # Ray's workers import green_nlp too: this clone's, as this process (run from the root) does
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    load_before = [round(x, 2) for x in os.getloadavg()]
    for attempt in range(3):  # Ray gives its raylet 30 s to come up, which an overloaded machine can miss
        start = time.perf_counter()
        try:
            ray.init(num_cpus=os.cpu_count(), include_dashboard=False, logging_level="WARNING")
            break
        except Exception as error:  # noqa: BLE001  Ray raises a bare Exception for this
            print(f"ray.init failed ({error}); attempt {attempt + 1} of 3", file=sys.stderr)
            ray.shutdown()
            if attempt == 2:
                raise
    ray_init = time.perf_counter() - start
    try:
        labeling = best_rows(
            [time_labeling(teacher, examples, args.batch_size, actors, thread_counts) for _ in range(args.repeats)]
        )
        parsing = best_rows(
            [
                time_parsing(parse_archive, parse_path, predictor_args, args.batch_size, actors, thread_counts)
                for _ in range(args.repeats)
            ]
        )
    finally:
        ray.shutdown()

    load_after = [round(x, 2) for x in os.getloadavg()]
    tasks = {
        "teacher labeling": {"archive": teacher_name, "input": teacher_source, "rows": labeling},
        "parsing": {
            "archive": Path(parse_archive).parent.name
            if parse_archive == str(SHIPPED_PARSER)
            else Path(parse_archive).name,
            "input": parse_source,
            "rows": parsing,
        },
    }
    for task in tasks.values():
        base = task["rows"]["one process, 1 thread"]["lines_per_s"]
        for row in task["rows"].values():
            row["x_one_process_1_thread"] = round(row["lines_per_s"] / base, 2)
        ray_rows = [task["rows"].get(f"Ray, {n} actor{'s' if n > 1 else ''}") for n in (1, 2)]
        if all(ray_rows):
            task["two_actors_over_one"] = round(ray_rows[1]["lines_per_s"] / ray_rows[0]["lines_per_s"], 2)
    note = (
        f"Machine: {hardware_description()}; Ray {ray.__version__}; batch size {args.batch_size}. "
        f"Ray start-up, paid once per run and not in any lines/s: starting the local instance "
        f"{ray_init:.1f} s, then starting the actors and loading their models ('load s'). "
        "lines/s is wall-clock throughput once loaded; 'x' is against the one-process run with 1 torch "
        f"thread (each actor runs 1 thread on 1 CPU); each row the fastest of {args.repeats} runs. "
        "Load average (1, 5, 15 min) "
        f"{'/'.join(map(str, load_before))} before, {'/'.join(map(str, load_after))} after. " + (args.note or "")
    )
    results = {
        "machine": hardware_description(),
        "ray": ray.__version__,
        "batch_size": args.batch_size,
        "ray_init_s": round(ray_init, 2),
        "load_average_before": load_before,
        "load_average_after": load_after,
        "tasks": tasks,
        "note": note,
    }
    rows = {
        f"{name}: {mode}": {
            **row,
            "identical_to_one_process": {True: "yes", False: "NO"}.get(row.get("identical_to_one_process"), ""),
        }
        for name, task in tasks.items()
        for mode, row in task["rows"].items()
    }
    summary = "; ".join(
        f"{name}: 2 actors / 1 actor = {task.get('two_actors_over_one')}x" for name, task in tasks.items()
    )
    write_results(
        RESULTS,
        "ray_scaling",
        results,
        rows,
        ["lines", "lines_per_s", "x_one_process_1_thread", "load_s", "identical_to_one_process"],
        note
        + "\n\n"
        + summary
        + "\n\nInputs: "
        + "; ".join(f"{name}: {task['archive']} on {task['input']}" for name, task in tasks.items()),
        first_column="task: mode",
    )


if __name__ == "__main__":
    main()
