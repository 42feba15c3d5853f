"""A ready-to-train student config written from a teacher parser's archive, for any treebank.

`training_configs/parser/student.jsonnet` knows the four treebanks of the results only. A teacher
trained on any other treebank already has everything a student needs in its archive: the training
config (readers, data paths, embeddings, trainer) and the vocabulary. The student keeps all of it and
changes what `biaffine_parser.libsonnet`'s `student` builder changes, so both write the same student:

- the dims given (`student_sizing` picks them for a fraction of the teacher's trainable parameters,
  counting real models built from `apply_dims`' params, and its command writes the config);
- the teacher's vocabulary (`from_files` on the archive), so label indices match the teacher's;
- distilled (D-x): the `green_parser_distillation` callback with the teacher, dropout off
  (the seed paper's equation 3); baseline (B-x): no teacher, the teacher's dropout.

The student reads the teacher's `pretrained_file` again, as student.jsonnet does, so it starts from
the same word vectors; where that file is gone the student starts from random vectors instead
(the vocabulary comes from the archive, so nothing else needs it).

    python -m green_nlp.training.student_sizing TEACHER/model.tar.gz --fraction 0.4 --write-config d40.json [--baseline]
"""

import copy
import json
import tarfile
from pathlib import Path
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.models import Model

from green_nlp.models.biaffine_parser import BiaffineDependencyParser
from green_nlp.names import PARSER_DISTILLATION, old_names

DISTILLATION_CALLBACKS = (PARSER_DISTILLATION, *old_names(PARSER_DISTILLATION))
SIZED_EMBEDDERS = {"tokens", "token_characters"}  # the embedders student_sizing knows how to narrow


class TeacherArchiveError(ValueError):
    """The teacher given cannot have a student config written from it; the message says why."""


def check_teacher_archive(path: Path) -> None:
    """Refuse, with the reason, anything but a biaffine parser's model.tar.gz whose embedders can be sized."""
    if not path.exists():
        raise TeacherArchiveError(f"teacher archive not found: {path}")
    if path.is_dir() or not tarfile.is_tarfile(path):
        hint = f" (for a training run folder, give {path / 'model.tar.gz'})" if path.is_dir() else ""
        raise TeacherArchiveError(f"{path} is not a model archive, the model.tar.gz that allennlp train writes{hint}")
    with tarfile.open(path) as archive:
        names = set(archive.getnames())
        if "config.json" not in names or not any(name.startswith("vocabulary/") for name in names):
            raise TeacherArchiveError(f"{path} has no config.json and vocabulary/: not an AllenNLP model archive")
        member = archive.extractfile("config.json")
        assert member is not None  # a regular file, listed above
        model = json.load(member).get("model", {})
    model_type = model.get("type")
    try:
        model_class: Optional[type] = Model.resolve_class_name(model_type)[0] if model_type else None
    except ConfigurationError:  # a name nothing imported registers: not ours either way
        model_class = None
    if model_class is None or not issubclass(model_class, BiaffineDependencyParser):
        raise TeacherArchiveError(
            f"{path} holds a {model_type!r} model, not a green_biaffine_parser: student configs are written "
            "for the biaffine parser only"
        )
    embedders = set(model.get("text_field_embedder", {}).get("token_embedders", {}))
    if "tokens" not in embedders or embedders - SIZED_EMBEDDERS:
        raise TeacherArchiveError(
            f"{path}: the teacher's token embedders are {sorted(embedders)}; a student can be sized from "
            f"{sorted(SIZED_EMBEDDERS)} only ('tokens' required), so write this student's config by hand"
        )


def apply_dims(model_params: dict[str, Any], dims: dict[str, int]) -> dict[str, Any]:
    """Teacher model params with a student's sizes (`student_sizing.student_dims` names) written in."""
    params = copy.deepcopy(model_params)
    embedders = params["text_field_embedder"]["token_embedders"]
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


def student_config(
    teacher_config: dict[str, Any], teacher_archive: str, dims: dict[str, int], distilled: bool
) -> dict[str, Any]:
    """The teacher's training config turned into its D-x (`distilled`) or B-x student's at `dims`."""
    config = copy.deepcopy(teacher_config)
    model = apply_dims(config["model"], dims)  # the teacher's pretrained_file kept: a student starts from it
    if distilled:
        model["embedding_dropout"] = model["mlp_dropout"] = model["encoder"]["dropout"] = 0.0
    config["model"] = model
    config["vocabulary"] = {"type": "from_files", "directory": teacher_archive}
    trainer = config.setdefault("trainer", {})
    callbacks = [c for c in trainer.get("callbacks", []) if c.get("type") not in DISTILLATION_CALLBACKS]
    if distilled:
        callbacks.append({"type": PARSER_DISTILLATION, "teacher_archive": teacher_archive})
    if callbacks:
        trainer["callbacks"] = callbacks
    else:
        trainer.pop("callbacks", None)
    return config


def drop_missing_pretrained_file(config: dict[str, Any]) -> Optional[str]:
    """Remove a pretrained_file that does not exist (the student then starts from random vectors); return it."""
    words = config["model"]["text_field_embedder"]["token_embedders"]["tokens"]
    path = words.get("pretrained_file")
    if path is None or Path(path).exists() or "://" in path:
        return None
    del words["pretrained_file"]
    return str(path)
