"""What checking a model folder adds to a cold start: `python -m benchmarks.runtime.folder_checks`.

For each shipped folder: the median time of the checks `green_nlp.load` runs before onnxruntime
sees a file (`read_meta` + `model_file`: keys, paths inside the folder, the recorded sha256 of
every file the load reads, the ONNX envelope), the part of it that is hashing, and the whole
`load` for scale. The files are in the page cache after the first round (as on a second start);
the first round's figures are printed too (one cold read, as far as this process can tell).
"""

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from green_nlp.runtime import load
from green_nlp.runtime.folder_files import sha256_file
from green_nlp.runtime.model_folder import model_file, read_meta

PRETRAINED = Path(__file__).resolve().parents[2] / "pretrained"


def _timed(call: Callable[[], object], rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def measure(folder: Path, rounds: int) -> dict[str, float]:
    meta = read_meta(folder)
    hashed = [path for path in folder.iterdir() if path.name in (meta.get("sha256") or {})]
    checks = _timed(lambda: model_file(folder, read_meta(folder)), rounds)
    hashing = _timed(lambda: [sha256_file(path) for path in hashed], rounds)
    loads = _timed(lambda: load(folder, threads=1), max(1, rounds // 4))
    return {
        "hashed_mb": sum(path.stat().st_size for path in hashed) / 1e6,
        "first_checks_ms": checks[0] * 1e3,
        "checks_ms": statistics.median(checks) * 1e3,
        "hashing_ms": statistics.median(hashing) * 1e3,
        "load_ms": statistics.median(loads) * 1e3,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="model folders (default: the shipped ones)")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    folders = args.folders or sorted(path for path in PRETRAINED.iterdir() if path.is_dir())
    print("| folder | hashed MB | checks, first (ms) | checks, median (ms) | of which sha256 (ms) | whole load (ms) |")
    print("|---|---|---|---|---|---|")
    for folder in folders:
        row = measure(folder, args.rounds)
        print(
            f"| {folder.name} | {row['hashed_mb']:.1f} | {row['first_checks_ms']:.1f} | {row['checks_ms']:.1f} "
            f"| {row['hashing_ms']:.1f} | {row['load_ms']:.0f} |"
        )


if __name__ == "__main__":
    main()
