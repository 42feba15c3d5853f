"""Shared pieces of the parser benchmarks: archives from runs, batching, timed parsing, scoring."""

import json
import re
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import torch
from allennlp.data import Batch, Instance
from allennlp.models.archival import archive_model

from green_nlp.dataset_readers import read_conllu

Predictions = dict[tuple[str, ...], list[tuple[list[int], list[str]]]]


def training_info(run_dir: Path) -> dict[str, Any]:
    """Epochs run and wall-clock minutes, from the per-epoch metrics AllenNLP writes."""
    epoch_files = sorted(run_dir.glob("metrics_epoch_*.json"), key=lambda p: int(re.findall(r"\d+", p.name)[-1]))
    if not epoch_files:
        return {}
    per_epoch = [json.loads(p.read_text()) for p in epoch_files]
    last = per_epoch[-1]
    config = json.loads((run_dir / "config.json").read_text())
    return {
        "epochs": len(epoch_files),
        "epochs_configured": config["trainer"]["num_epochs"],
        "best_epoch": last["best_epoch"] + 1,
        "best_dev_uas": round(100 * last["best_validation_UAS"], 2),
        "best_dev_las": round(100 * last["best_validation_LAS"], 2),
        "dev_las_by_epoch": [round(100 * m["validation_LAS"], 2) for m in per_epoch],
        "train_minutes": round(training_seconds(per_epoch) / 60, 1),
    }


def training_seconds(per_epoch: list[dict[str, Any]]) -> float:
    """Wall-clock training time over all sessions of a run: AllenNLP's `training_duration` restarts
    from zero when a run is resumed with `-r`, so sum the last value of each session."""

    def seconds(metrics: dict[str, Any]) -> float:
        hours, minutes, secs = (float(x) for x in metrics["training_duration"].split(":"))
        return timedelta(hours=hours, minutes=minutes, seconds=secs).total_seconds()

    total, previous = 0.0, 0.0
    for metrics in per_epoch:
        current = seconds(metrics)
        if current < previous:  # a resumed session started counting again
            total += previous
        previous = current
    return total + previous


def has_weights(run_dir: Path) -> bool:
    """Whether a run folder holds a model: it can also hold only a vocabulary (a teacher's, rebuilt
    with `allennlp build-vocab` for students trained after the teacher's run was gone)."""
    return (run_dir / "model.tar.gz").exists() or (run_dir / "best.th").exists()


def ensure_archive(run_dir: Path) -> tuple[Path, bool]:
    """The run's model.tar.gz; a run that has not finished (stopped early, or still going) is
    archived afresh from its current best.th, beside it, so the run can still resume."""
    archive = run_dir / "model.tar.gz"
    if archive.exists() and (run_dir / "metrics.json").exists():
        return archive, False
    if not (run_dir / "best.th").exists():
        raise FileNotFoundError(f"{run_dir} has neither model.tar.gz nor best.th")
    best_so_far = run_dir / "best_so_far.tar.gz"
    archive_model(str(run_dir), weights="best.th", archive_path=str(best_so_far))
    return best_so_far, True


class Timer:
    """Accumulates the time spent inside one method of a model (e.g. its tree decoder)."""

    def __init__(self, owner: Any, name: str) -> None:
        self.seconds = 0.0
        original: Callable = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        setattr(owner, name, timed)


def make_batches(instances: list[Instance], vocab, batch_size: int) -> list[tuple[dict[str, Any], list[list[str]]]]:
    """Length-sorted batches (as bucket loaders build them), tensorized once, outside the timing."""
    ordered = sorted(instances, key=lambda i: len(i["words"]))
    batches = []
    for start in range(0, len(ordered), batch_size):
        batch = Batch(ordered[start : start + batch_size])
        batch.index_instances(vocab)
        batches.append((batch.as_tensor_dict(), [[t.text for t in i["words"].tokens] for i in batch.instances]))
    return batches


def to_device(tensors: Any, device: torch.device) -> Any:
    if isinstance(tensors, torch.Tensor):
        return tensors.to(device)
    if isinstance(tensors, dict):
        return {key: to_device(value, device) for key, value in tensors.items()}
    return tensors


def predict(model, batches) -> tuple[Predictions, float]:
    """Parse every batch (forward pass, tree and label decoding); returns predictions and seconds."""
    predictions: Predictions = {}
    if torch.cuda.is_available() and next(model.parameters()).is_cuda:
        torch.cuda.synchronize()
    start = time.perf_counter()
    with torch.inference_mode():
        for tensors, words_batch in batches:
            output = model.make_output_human_readable(model(**tensors))
            labels = output.get("predicted_deprels", output.get("predicted_dependencies"))
            for words, heads, deprels in zip(words_batch, output["predicted_heads"], labels):
                predictions.setdefault(tuple(words), []).append(([int(h) for h in heads], list(deprels)))
    return predictions, time.perf_counter() - start


def attachment_scores(gold_file: Path, predictions: Predictions) -> tuple[float, float]:
    """UAS and LAS in percent over all words (punctuation included, full relation labels)."""
    correct_heads = correct_labeled = total = 0
    seen: dict[tuple[str, ...], int] = {}
    for sentence in read_conllu(gold_file):
        key = tuple(sentence.words)
        heads, deprels = predictions[key][seen.get(key, 0)]  # duplicate sentences keep file order
        seen[key] = seen.get(key, 0) + 1
        for gold_head, gold_label, head, label in zip(sentence.heads, sentence.deprels, heads, deprels):
            total += 1
            correct_heads += gold_head == head
            correct_labeled += gold_head == head and gold_label == label
    return 100 * correct_heads / total, 100 * correct_labeled / total


def read_for_model(archive, path: Path) -> list[Instance]:
    reader = archive.validation_dataset_reader
    instances = list(reader.read(path))
    for instance in instances:
        reader.apply_token_indexers(instance)
    return instances
