"""The shipped parser's throughput on a GPU, beside one CPU thread in the same run, with an energy
figure from the GPU's own power counter.

    python -m benchmarks.parser.gpu_throughput [--archives LABEL=ARCHIVE ...] [--batch-sizes 32 256 2048]

On a GPU the faster path is torch: onnxruntime's CUDA provider is not among the runtime's
dependencies (its wheel alone is several hundred MB). Each archive is timed as
`benchmarks.parser.distillation` times its models: forward, tree and label decoding and the UD heads
on pre-built, length-sorted batches of EWT test (`benchmarks.parser.parsing.predict`), the median of
`--repeats`; the CPU row is the same torch model on one thread at batch 32, in the same process.
While the GPU is timed, `nvidia-smi` samples the board's power draw every 100 ms: Wh per million
tokens = mean watts x seconds / tokens (the board's whole draw, idle share included; the host CPU
is not counted). CPU-s per million tokens: the process's CPU time over the same timing.

Default archive: the student `pretrained/en-ewt-parser` was exported from (found by its sha256
among runs/parser/ud_ewt/*/model.tar.gz). Results: benchmarks/results/gpu/parser_gpu_throughput.*
"""

import argparse
import contextlib
import hashlib
import json
import statistics
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Optional

import torch

from benchmarks.common import REPO, RESULTS, hardware_description, write_results
from benchmarks.parser.parsing import make_batches, predict, read_for_model, to_device
from benchmarks.parser.ud_heads_weights import labelled_archive
from green_nlp.settings import data_path

NAME = "parser_gpu_throughput"
OUT = RESULTS / "gpu"
RUNS = REPO / "runs" / "parser" / "ud_ewt"
COLUMNS = ["device", "batch", "tokens/s", "sentences/s", "CPU-s per M tokens", "GPU W (mean)", "Wh per M tokens"]


class PowerSampler:
    """`nvidia-smi` printing the board's power draw every 100 ms while the block runs (no samples,
    and so no energy figure, where nvidia-smi is missing or cannot read the counter)."""

    def __init__(self) -> None:
        self.watts: list[float] = []
        self._process: Optional[subprocess.Popen] = None
        self._reader: Optional[threading.Thread] = None

    def __enter__(self) -> "PowerSampler":
        command = ["nvidia-smi", "--query-gpu=power.draw", "--format=csv,noheader,nounits", "-lms", "100"]
        try:
            self._process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        except OSError:
            return self
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        return self

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            try:
                self.watts.append(float(line.split(",")[0]))
            except ValueError:
                continue

    def __exit__(self, *exc: Any) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=10)
        if self._reader is not None:
            self._reader.join(timeout=5)

    @property
    def mean_watts(self) -> Optional[float]:
        return statistics.mean(self.watts) if self.watts else None


def shipped_archive() -> Optional[Path]:
    """The archive pretrained/en-ewt-parser was exported from, if its run is here."""
    meta = json.loads((REPO / "pretrained" / "en-ewt-parser" / "green_model.json").read_text(encoding="utf-8"))
    for archive in sorted(RUNS.glob("*/model.tar.gz")):
        if hashlib.sha256(archive.read_bytes()).hexdigest() == meta["source_archive_sha256"]:
            return archive
    return None


def time_device(
    model: Any, instances: list[Any], batch_size: int, repeats: int, device: torch.device
) -> dict[str, Any]:
    """Median seconds of `repeats` passes over all sentences, their CPU seconds, and the GPU's mean
    power over the passes (GPU only)."""
    batches = [
        (to_device(tensors, device), words) for tensors, words in make_batches(instances, model.vocab, batch_size)
    ]
    predict(model, batches[:2])  # warm-up: CUDA kernels, allocator
    seconds, cpu = [], []
    sampler = PowerSampler() if device.type == "cuda" else None
    with sampler if sampler is not None else contextlib.nullcontext():
        for _ in range(repeats):
            start_cpu = time.process_time()
            _, elapsed = predict(model, batches)
            if device.type == "cuda":
                torch.cuda.synchronize()
            seconds.append(elapsed)
            cpu.append(time.process_time() - start_cpu)
    return {
        "seconds": statistics.median(seconds),
        "cpu_seconds": statistics.median(cpu),
        "watts": sampler.mean_watts if sampler is not None else None,
    }


def measure(archive: Path, batch_sizes: list[int], repeats: int, test_file: Path) -> list[dict[str, Any]]:
    from allennlp.models.archival import load_archive

    loaded = load_archive(str(archive))
    model = loaded.model.eval()
    instances = read_for_model(loaded, test_file)
    tokens = sum(len(instance["words"]) for instance in instances)
    rows = []
    torch.set_num_threads(1)
    runs = [("cpu", 32)] + ([("cuda", size) for size in batch_sizes] if torch.cuda.is_available() else [])
    for device_type, size in runs:
        device = torch.device(device_type)
        model.to(device)
        timed = time_device(model, instances, size, repeats, device)
        watts = timed["watts"]
        rows.append(
            {
                "device": torch.cuda.get_device_name(0) if device_type == "cuda" else "CPU, 1 thread (torch fp32)",
                "batch": size,
                "tokens/s": tokens / timed["seconds"],
                "sentences/s": len(instances) / timed["seconds"],
                "CPU-s per M tokens": timed["cpu_seconds"] / tokens * 1e6,
                "GPU W (mean)": watts,
                "Wh per M tokens": watts * timed["seconds"] / tokens * 1e6 / 3600 if watts else None,
                "tokens": tokens,
            }
        )
    model.to(torch.device("cpu"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--archives", nargs="+", type=labelled_archive, metavar="LABEL=ARCHIVE")
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[32, 256, 2048])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output-dir", type=Path, default=OUT)
    args = parser.parse_args()
    from allennlp.common.plugins import import_plugins

    import_plugins()
    archives = dict(args.archives) if args.archives else {}
    if not archives:
        found = shipped_archive()
        if found is None:
            raise SystemExit("the archive of pretrained/en-ewt-parser is not under runs/parser/ud_ewt: give --archives")
        archives = {"en-ewt-parser (its archive)": found}
    test_file = data_path("ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    rows: dict[str, dict[str, Any]] = {}
    for label, archive in archives.items():
        for row in measure(archive, args.batch_sizes, args.repeats, test_file):
            rows[f"{label}, {row['device']}, batch {row['batch']}"] = row
    results = {
        "machine": hardware_description(),
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "torch": torch.__version__,
        "repeats": args.repeats,
        "measured_on": time.strftime("%Y-%m-%d"),
        "archives": {label: _described(path) for label, path in archives.items()},
        "rows": rows,
    }
    shown = {label: {key: _shown(key, value) for key, value in row.items()} for label, row in rows.items()}
    note = (
        f"EWT test, {next(iter(rows.values()))['tokens']:,} words from gold tokens; forward, tree and label decoding "
        f"and the UD heads on pre-built length-sorted batches, median of {args.repeats}. "
        f"Machine: {results['machine']}; GPU: {results['gpu'] or 'none'}; torch {results['torch']}. "
        "GPU W: the board's mean power draw sampled by nvidia-smi every 100 ms while timing (idle share "
        "included, host CPU not counted); Wh per M tokens = W x seconds / tokens. "
        "Produced by `python -m benchmarks.parser.gpu_throughput`."
    )
    write_results(args.output_dir, NAME, results, shown, COLUMNS[2:], note)


def _described(path: Path) -> dict[str, str]:
    """An archive by its sha256 (the exported folder's `source_archive_sha256` names the same), not by
    where it lay on the machine that ran this."""
    return {"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def _shown(key: str, value: Any) -> Any:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"
    return value


if __name__ == "__main__":
    main()
