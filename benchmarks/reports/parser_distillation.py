"""Markdown table and plots (accuracy vs tokens/s vs parameters, like the seed paper's Figure 6)
from benchmarks/results/parser_distillation.json.

Peers trained for fewer epochs are shown for speed only, and the table says why (`benchmarks.reports.peers`).

    python -m benchmarks.reports.parser_distillation [--results benchmarks/results/parser_distillation.json]
"""

import argparse
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from benchmarks.common import RESULTS  # noqa: E402
from benchmarks.reports.peers import peer_epochs, peer_label, peer_note  # noqa: E402


def aims(models: dict[str, Any], largest: str) -> list[str]:
    """The issue's targets, checked against the measured figures."""
    lines = []
    full = models.get("full")
    if full and "D-20" in models:
        d20 = models["D-20"]
        lines.append(
            f"D-20 LAS {d20['las']} vs full {full['las']} - 1.0: "
            f"{'met' if d20['las'] >= full['las'] - 1.0 else 'not met'}"
        )
        if "cpu_tokens_per_s" in d20 and "cpu_tokens_per_s" in full:
            ratio = d20["cpu_tokens_per_s"][largest] / full["cpu_tokens_per_s"][largest]
            lines.append(
                f"D-20 CPU tokens/s at batch {largest} = {ratio:.2f}x full (aim 3.0x): "
                f"{'met' if ratio >= 3.0 else 'not met'}"
            )
    for fraction in (20, 40, 60, 80):
        d, b = models.get(f"D-{fraction}"), models.get(f"B-{fraction}")
        if d and b:
            lines.append(
                f"D-{fraction} LAS {d['las']} vs B-{fraction} {b['las']} + 1.0: "
                f"{'met' if d['las'] >= b['las'] + 1.0 else 'not met'}"
            )
    for peer_name, peer in models.items():
        if not (full and peer.get("peer")):
            continue
        for size in full.get("cpu_tokens_per_s", {}):
            if not peer.get("cpu_tokens_per_s", {}).get(size):
                continue  # the peer was not timed at this batch size
            ratio = full["cpu_tokens_per_s"][size] / peer["cpu_tokens_per_s"][size]
            aim = (
                f" (aim 2x): {'met' if ratio >= 2 else 'not met'}"
                if peer_name == "allennlp-models biaffine_parser"
                else ""
            )
            lines.append(f"full vs {peer_name} tokens/s at batch {size}: {ratio:.2f}x{aim}")
    return lines


def speed_cells(row: dict[str, Any], key: str, sizes: list[str], digits: int) -> list[str]:
    figures = row.get(key, {})
    return [f"{figures[s]:,.{digits}f}" if figures.get(s) else "-" for s in sizes]


def table(treebank: str, figures: dict[str, Any], sizes: list[str]) -> str:
    devices = [d for d in ("cpu", "gpu") if any(f"{d}_tokens_per_s" in r for r in figures["models"].values())]
    header = ["model", "UAS", "LAS", "params", "fraction", "epochs"]
    for device in devices:
        header += [f"{device.upper()} tok/s b{s}" for s in sizes] + [f"{device.upper()} sent/s b{s}" for s in sizes]
    lines = [
        f"#### {treebank} (test: {figures['test_sentences']} sentences, {figures['test_tokens']} tokens)",
        "",
        "| " + " | ".join(header) + " |",
        "|---" * len(header) + "|",
    ]
    for name, row in figures["models"].items():
        fraction = f"{100 * row['param_fraction']:.1f} %" if row.get("param_fraction") else ""
        scores = ["", ""] if row.get("peer") else [f"{row['uas']:.2f}", f"{row['las']:.2f}"]
        label = peer_label(name, row) if row.get("peer") else name
        cells = [label, *scores, f"{row['params']:,}", fraction, str(row.get("epochs", ""))]
        for device in devices:
            cells += speed_cells(row, f"{device}_tokens_per_s", sizes, 0) + speed_cells(
                row, f"{device}_sentences_per_s", sizes, 1
            )
        lines.append("| " + " | ".join(cells) + " |")
    largest = sizes[-1]
    checks = aims(figures["models"], largest) + peer_note(figures["models"])
    if checks:
        lines += [""] + [f"- {line}" for line in checks]
    for device, under in figures.get("measured_under", {}).items():
        where = under["hardware"] if device == "cpu" else f"{under['gpu']} (host: {under['hardware']})"
        lines.append(
            f"- {device.upper()} figures: {where}, median of {under['repeats']}, measured {under['measured_on']}"
        )
    return "\n".join(lines) + "\n"


def plot(results: dict[str, Any], out: Path) -> None:
    treebanks = list(results["treebanks"])
    # the largest batch at which the peers were timed too, so they appear beside our models
    timed = [size for size in results["batch_sizes"] if size <= results.get("peer_max_batch", size)]
    largest = str(timed[-1] if timed else results["batch_sizes"][-1])
    fig, axes = plt.subplots(1, len(treebanks), figsize=(6 * len(treebanks), 4.5), squeeze=False)
    for axis, treebank in zip(axes[0], treebanks):
        models = results["treebanks"][treebank]["models"]
        for name, row in models.items():
            if not row.get("cpu_tokens_per_s", {}).get(largest):
                continue  # not timed at this batch size
            if row.get("peer"):
                draw_peer(axis, peer_label(name, row), row["cpu_tokens_per_s"][largest])
                continue
            colour = (
                "tab:green"
                if name.startswith("D-")
                else "tab:blue"
                if name.startswith("B-")
                else "tab:red"
                if name.startswith("full")
                else "tab:gray"
            )
            marker = "s" if row.get("int8_dynamic_quantization") else "o"
            axis.scatter(
                row["cpu_tokens_per_s"][largest],
                row["las"],
                s=20 + row["params"] / 5e4,
                c=colour,
                marker=marker,
                alpha=0.7,
            )
            axis.annotate(name, (row["cpu_tokens_per_s"][largest], row["las"]), fontsize=7)
        axis.set_title(f"{treebank}: LAS vs CPU speed (1 thread, batch {largest})")
        axis.set_xlabel("tokens / s")
        axis.set_ylabel("LAS (test)")
        axis.grid(alpha=0.3)
    legend = "marker area ~ trainable parameters; squares: int8 dynamic quantization"
    # the green models' epochs beside the peers' are those of the treebanks that have peers
    with_peers = [
        figures["models"]
        for figures in results["treebanks"].values()
        if any(row.get("peer") for row in figures["models"].values())
    ]
    theirs, ours = peer_epochs([row for models in with_peers for row in models.values()])
    if theirs:
        legend += (
            f"; dotted lines: peers at their speed only (trained {theirs} epochs against {ours}: "
            "their accuracy is not comparable)"
        )
    fig.text(0.01, 0.01, legend, fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def draw_peer(axis: Any, label: str, tokens_per_s: float) -> None:
    """A peer on the speed axis alone: a dotted vertical line at its tokens/s, named along it."""
    axis.axvline(tokens_per_s, color="tab:gray", linestyle=":", linewidth=1.2)
    axis.annotate(
        label,
        (tokens_per_s, 0.03),
        xycoords=("data", "axes fraction"),
        rotation=90,
        fontsize=7,
        va="bottom",
        ha="right",
        color="dimgray",
    )


def write_report(results_file: Path) -> str:
    """Write the Markdown table and the plot beside `results_file`; returns the Markdown."""
    results = json.loads(results_file.read_text())
    sizes = [str(s) for s in results["batch_sizes"]]
    note = (
        f"CPU: one thread; GPU: one device, batches moved there before timing; median of interleaved runs; "
        f"{results['timing']}. '-': not timed (peers only up to batch {results.get('peer_max_batch')}, "
        f"their all-pairs label scores need too much memory beyond)."
    )
    markdown = "\n".join(table(t, f, sizes) for t, f in results["treebanks"].items()) + f"\n{note}\n"
    results_file.with_suffix(".md").write_text(markdown)
    plot(results, results_file.with_suffix(".png"))
    return markdown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=RESULTS / "parser_distillation.json")
    print(write_report(parser.parse_args().results))


if __name__ == "__main__":
    main()
