"""Pick a student parser's dimensions for a target fraction of the teacher's trainable parameters.

As in the seed paper, a student has the teacher's structure with every layer narrowed by one
common factor; the factor is found by bisection on the exact parameter count of the real model
built with the teacher's vocabulary. Pretrained word vectors keep their width (GloVe is 50-d).

    python -m green_nlp.training.student_sizing TEACHER [--fractions 0.2 0.4 0.6 0.8] [--out sizes.json]
    python -m green_nlp.training.student_sizing TEACHER/model.tar.gz --fraction 0.4 --write-config d40.json [--baseline]

TEACHER is a model archive, a training run folder, or a training config (its vocabulary is then
built from the config's training data). `--write-config` writes one student's complete training
config from a teacher archive instead (`green_nlp.training.student_config`), for any treebank.
"""

import argparse
import copy
import json
import tarfile
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from allennlp.common import Params
from allennlp.data import Vocabulary
from allennlp.models import Model

from green_nlp.nn.parameters import count_trainable_parameters

DEFAULT_FRACTIONS = (0.2, 0.4, 0.6, 0.8)


def _scaled(value: int, scale: float) -> int:
    return max(1, int(round(value * scale)))


def student_dims(model_params: Dict[str, Any], scale: float) -> Dict[str, int]:
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


def apply_dims(model_params: Dict[str, Any], dims: Dict[str, int]) -> Dict[str, Any]:
    """Teacher model params with the student's sizes written in (and no pretrained file to load)."""
    params = copy.deepcopy(model_params)
    embedders = params["text_field_embedder"]["token_embedders"]
    embedders["tokens"].pop("pretrained_file", None)  # the count does not depend on its values
    embedders["tokens"]["embedding_dim"] = dims["word_dim"]
    char_out = 0
    if "token_characters" in embedders:
        characters = embedders["token_characters"]
        characters["embedding"]["embedding_dim"] = dims["char_dim"]
        characters["encoder"]["embedding_dim"] = dims["char_dim"]
        characters["encoder"]["num_filters"] = dims["char_filters"]
        char_out = dims["char_filters"] * len(characters["encoder"].get("ngram_filter_sizes", [2, 3, 4, 5]))
    params["upos_embedding_dim"] = dims["upos_dim"]
    params["arc_mlp_dim"], params["label_mlp_dim"] = dims["arc_dim"], dims["label_dim"]
    params["encoder"]["hidden_size"] = dims["lstm_hidden"]
    params["encoder"]["input_size"] = dims["word_dim"] + char_out + dims["upos_dim"]
    return params


def count_parameters(model_params: Dict[str, Any], vocab: Vocabulary) -> int:
    return count_trainable_parameters(Model.from_params(vocab=vocab, params=Params(copy.deepcopy(model_params))))


def size_student(
    model_params: Dict[str, Any], vocab: Vocabulary, fraction: float, iterations: int = 24
) -> Tuple[Dict[str, int], int, float]:
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


def read_archive(archive_path: Path) -> Tuple[Dict[str, Any], Vocabulary]:
    """The training config and vocabulary of a model archive (its weights are not extracted)."""
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(archive_path) as archive:
            wanted = [m for m in archive.getmembers() if m.name == "config.json" or m.name.startswith("vocabulary/")]
            archive.extractall(folder, members=wanted, filter="data")
        config = json.loads((Path(folder) / "config.json").read_text())
        return config, Vocabulary.from_files(str(Path(folder) / "vocabulary"))


def load_teacher_spec(teacher: Path) -> Tuple[Dict[str, Any], Vocabulary]:
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


def main(argv: Optional[List[str]] = None) -> None:
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

    import green_nlp  # noqa: F401  (registers the model)

    if args.write_config is not None:
        if len(args.fractions) != 1:
            parser.error(f"--write-config writes one student: give one --fraction, not {args.fractions}")
        # imported here: student_config builds on this module
        from green_nlp.training.student_config import TeacherArchiveError, write_student_config

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
    result: Dict[str, Any] = {"teacher": {**teacher_dims, "params": teacher_count}, "students": {}}
    for fraction in args.fractions:
        dims, count, reached = size_student(model_params, vocab, fraction)
        result["students"][str(int(round(100 * fraction)))] = {**dims, "params": count, "fraction": round(reached, 4)}
        print(f"{fraction:.0%}: {dims} -> {count:,} parameters = {reached:.2%} of {teacher_count:,}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
