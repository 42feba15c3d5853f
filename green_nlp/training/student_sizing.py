"""Pick a student parser's dimensions for a target fraction of the teacher's trainable parameters.

As in the seed paper, a student has the teacher's structure with every layer narrowed by one
common factor; the factor is found by bisection on the exact parameter count of the real model
built with the teacher's vocabulary. Pretrained word vectors keep their width (GloVe is 50-d).

    python -m green_nlp.training.student_sizing TEACHER [--fractions 0.2 0.4 0.6 0.8] [--out sizes.json]
    python -m green_nlp.training.student_sizing TEACHER/model.tar.gz --fraction 0.4 --write-config d40.json [--baseline]

TEACHER is a model archive, a training run folder, or a training config (its vocabulary is then
built from the config's training data). `--write-config` writes one student's complete training
config from a teacher archive instead (`write_student_config`, over `green_nlp.training.student_config`),
for any treebank.
"""

import argparse
import copy
import json
import logging
import tarfile
import tempfile
from pathlib import Path
from typing import Any, Optional

from allennlp.common import Params
from allennlp.data import Vocabulary
from allennlp.models import Model

from green_nlp.nn.parameters import count_trainable_parameters
from green_nlp.training.student_config import (
    TeacherArchiveError,
    apply_dims,
    check_teacher_archive,
    drop_missing_pretrained_file,
    student_config,
)

logger = logging.getLogger(__name__)

DEFAULT_FRACTIONS = (0.2, 0.4, 0.6, 0.8)


def _scaled(value: int, scale: float) -> int:
    return max(1, int(round(value * scale)))


def student_dims(model_params: dict[str, Any], scale: float) -> dict[str, int]:
    """The student's sizes at `scale` (libsonnet argument names), from the teacher's model params."""
    embedders = model_params["text_field_embedder"]["token_embedders"]
    words = embedders["tokens"]
    dims = {
        "lstm_hidden": _scaled(model_params["encoder"]["hidden_size"], scale),
        "lstm_layers": model_params["encoder"].get("num_layers", 1),
        "arc_dim": _scaled(model_params.get("arc_mlp_dim", 500), scale),
        "label_dim": _scaled(model_params.get("label_mlp_dim", 100), scale),
        "upos_dim": _scaled(model_params.get("upos_embedding_dim", 100), scale)
        if model_params.get("upos_embedding_dim", 100) > 0
        else 0,
        "word_dim": words["embedding_dim"] if "pretrained_file" in words else _scaled(words["embedding_dim"], scale),
    }
    if "token_characters" in embedders:
        characters = embedders["token_characters"]
        dims["char_dim"] = _scaled(characters["embedding"]["embedding_dim"], scale)
        dims["char_filters"] = _scaled(characters["encoder"]["num_filters"], scale)
    return dims


def count_parameters(model_params: dict[str, Any], vocab: Vocabulary) -> int:
    """Trainable parameters of the model these params build (without reading a pretrained file: same count)."""
    params = copy.deepcopy(model_params)
    params["text_field_embedder"]["token_embedders"]["tokens"].pop("pretrained_file", None)
    return count_trainable_parameters(Model.from_params(vocab=vocab, params=Params(params)))


def size_student(
    model_params: dict[str, Any], vocab: Vocabulary, fraction: float, iterations: int = 24
) -> tuple[dict[str, int], int, float]:
    """(dims, student params, fraction reached) with the fraction as close to `fraction` as bisection gets."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction}")
    teacher_count = count_parameters(apply_dims(model_params, student_dims(model_params, 1.0)), vocab)
    low, high = 0.0, 1.0
    best = None
    for _ in range(iterations):
        scale = (low + high) / 2
        dims = student_dims(model_params, scale)
        count = count_parameters(apply_dims(model_params, dims), vocab)
        if best is None or abs(count / teacher_count - fraction) < abs(best[1] / teacher_count - fraction):
            best = (dims, count)
        if count / teacher_count < fraction:
            low = scale
        else:
            high = scale
    assert best is not None  # iterations >= 1
    dims, count = best
    return dims, count, count / teacher_count


def read_archive(archive_path: Path) -> tuple[dict[str, Any], Vocabulary]:
    """The training config and vocabulary of a model archive (its weights are not extracted)."""
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(archive_path) as archive:
            wanted = [m for m in archive.getmembers() if m.name == "config.json" or m.name.startswith("vocabulary/")]
            archive.extractall(folder, members=wanted, filter="data")
        config = json.loads((Path(folder) / "config.json").read_text())
        return config, Vocabulary.from_files(str(Path(folder) / "vocabulary"))


def load_teacher_spec(teacher: Path) -> tuple[dict[str, Any], Vocabulary]:
    """Model params and vocabulary from an archive, a run folder, or a training config."""
    if teacher.is_dir():
        config = json.loads((teacher / "config.json").read_text())
        return config["model"], Vocabulary.from_files(str(teacher / "vocabulary"))
    if teacher.name.endswith(".tar.gz"):
        config, vocab = read_archive(teacher)
        return config["model"], vocab
    from allennlp.data import DatasetReader

    params = Params.from_file(str(teacher))
    reader = DatasetReader.from_params(params.pop("dataset_reader"))
    vocab = Vocabulary.from_params(
        params.pop("vocabulary", Params({})), instances=reader.read(params.pop("train_data_path"))
    )
    return params.pop("model").as_dict(), vocab


def write_student_config(
    teacher_archive: Path, fraction: float, out: Path, distilled: bool = True
) -> tuple[dict[str, int], int, float]:
    """Size a student at `fraction` of the teacher, write its config to `out`; (dims, params, fraction reached)."""
    if not 0 < fraction < 1:
        raise ValueError(f"a student's fraction of the teacher's parameters must be in (0, 1), got {fraction}")
    check_teacher_archive(teacher_archive)
    teacher_config, vocab = read_archive(teacher_archive)
    dims, count, reached = size_student(teacher_config["model"], vocab, fraction)
    config = student_config(teacher_config, str(teacher_archive), dims, distilled)
    missing = drop_missing_pretrained_file(config)
    if missing is not None:
        logger.warning(
            "the teacher's pretrained_file %s is not there: the student's word vectors start at random "
            "(give the file with -o '{\"model.text_field_embedder.token_embedders.tokens.pretrained_file\": PATH}')",
            missing,
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(config, indent=2) + "\n")
    return dims, count, reached


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description="Pick student parser sizes for fractions of a teacher's parameters.")
    parser.add_argument("teacher", type=Path, help="a model archive, a training run folder or a training config")
    parser.add_argument("--fractions", "--fraction", type=float, nargs="+", default=list(DEFAULT_FRACTIONS))
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--out", type=Path, help="write the sizes as JSON here (student configs import it)")
    output.add_argument(
        "--write-config",
        type=Path,
        metavar="CONFIG",
        help="write a ready-to-train student config (one --fraction; TEACHER a model.tar.gz): "
        "the teacher's config with the student's dims, the teacher's vocabulary and the distillation callback",
    )
    parser.add_argument(
        "--baseline", action="store_true", help="with --write-config: the equal-size student without a teacher (B-x)"
    )
    args = parser.parse_args(argv)
    # checked before the teacher loads, and in one message: a table row of 1.0 is the teacher's own size,
    # a student config of 1.0 would be a second teacher
    upper = "1 (1 is the teacher itself)" if args.write_config is not None else "1"
    for fraction in args.fractions:
        if not 0 < fraction < 1 and not (fraction == 1 and args.write_config is None):
            parser.error(
                f"--fraction must be above 0 and {'below' if args.write_config else 'at most'} {upper}, got {fraction}"
            )

    import green_nlp  # noqa: F401  (registers the model)

    if args.write_config is not None:
        if len(args.fractions) != 1:
            parser.error(f"--write-config writes one student: give one --fraction, not {args.fractions}")
        try:
            dims, count, reached = write_student_config(
                args.teacher, args.fractions[0], args.write_config, distilled=not args.baseline
            )
        except (TeacherArchiveError, ValueError) as error:
            parser.error(str(error))
        name = f"{'B' if args.baseline else 'D'}-{round(100 * args.fractions[0])}"
        print(f"{name}: {dims} -> {count:,} parameters = {reached:.2%} of the teacher's")
        print(f"wrote {args.write_config}; next: allennlp train {args.write_config} -s RUN --include-package green_nlp")
        return
    if args.baseline:
        parser.error("--baseline goes with --write-config")

    model_params, vocab = load_teacher_spec(args.teacher)
    teacher_dims = student_dims(model_params, 1.0)
    teacher_count = count_parameters(apply_dims(model_params, teacher_dims), vocab)
    result: dict[str, Any] = {"teacher": {**teacher_dims, "params": teacher_count}, "students": {}}
    for fraction in args.fractions:
        dims, count, reached = size_student(model_params, vocab, fraction)
        result["students"][str(int(round(100 * fraction)))] = {**dims, "params": count, "fraction": round(reached, 4)}
        print(f"{fraction:.0%}: {dims} -> {count:,} parameters = {reached:.2%} of {teacher_count:,}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
