"""A student config written from a teacher archive is student.jsonnet's student for the treebanks it knows,
trains with `allennlp train` for a treebank it does not, and bad teachers or fractions are refused by name."""

import io
import json
import re
import shutil
import tarfile
from pathlib import Path
from typing import Any

import pytest
from allennlp.commands.train import train_model_from_file
from allennlp.models.archival import load_archive

from green_nlp.nn.parameters import count_trainable_parameters
from green_nlp.training.student_config import TeacherArchiveError, check_teacher_archive, student_config
from green_nlp.training.student_sizing import main, read_archive, write_student_config
from tests.conftest import FIXTURES, REPO_ROOT
from tests.parser_configs import DISTILLATION, TEACHER_ARCHIVE, TINY_CONLLU, read_config

PARSER = REPO_ROOT / "training_configs" / "parser"
WORDS = "model.text_field_embedder.token_embedders.tokens"


def flat(config: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted key -> leaf value, so that two configs' differences can be named."""
    leaves: dict[str, Any] = {}
    for key, value in config.items():
        if isinstance(value, dict) and value:
            leaves.update(flat(value, f"{prefix}{key}."))
        else:
            leaves[f"{prefix}{key}"] = value
    return leaves


def archive_with_config(folder: Path, config: dict[str, Any]) -> Path:
    """The fixture teacher's archive (vocabulary, weights) with `config` as its config.json."""
    path = folder / "model.tar.gz"
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(TEACHER_ARCHIVE) as source, tarfile.open(path, "w:gz") as target:
        for member in source.getmembers():
            if member.name != "config.json":
                target.addfile(member, source.extractfile(member) if member.isfile() else None)
        data = json.dumps(config).encode()
        info = tarfile.TarInfo("config.json")
        info.size = len(data)
        target.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("distilled", [True, False], ids=["D", "B"])
@pytest.mark.parametrize("treebank", ["ud_ewt", "ud_wolof_wtb"])
def test_the_student_of_a_known_treebank_is_student_jsonnets(treebank, distilled, tmp_path, monkeypatch):
    """The teacher's config read back from an archive and given student_sizes/<treebank>.json's 40 % dims
    gives student.jsonnet's D-40 / B-40, key for key. The one difference: student.jsonnet gives every student
    patience 10, the written config keeps the teacher's trainer, and the EWT teacher stops after 5 epochs."""
    monkeypatch.chdir(tmp_path)
    teacher = "runs/parser/" + treebank + "/teacher/model.tar.gz"  # where student.jsonnet looks for it
    archive = archive_with_config(tmp_path / Path(teacher).parent, read_config(PARSER / f"{treebank}.jsonnet"))
    sizes = json.loads((PARSER / "student_sizes" / f"{treebank}.json").read_text())["students"]["40"]
    dims = {key: value for key, value in sizes.items() if key not in ("params", "fraction")}

    written = student_config(read_archive(archive)[0], teacher, dims, distilled)
    expected = read_config(
        PARSER / "student.jsonnet",
        {"TREEBANK": treebank, "SIZE": "40", "DISTILLED": str(distilled).lower(), "SEED": "1"},
    )
    ours, theirs = flat(written), flat(expected)
    differences = {key for key in ours.keys() | theirs.keys() if ours.get(key, "absent") != theirs.get(key, "absent")}
    assert differences == ({"trainer.patience"} if treebank == "ud_ewt" else set())
    assert [c["type"] for c in written["trainer"].get("callbacks", [])] == (["green_parser_distillation"] * distilled)


def test_a_teacher_on_any_treebank_gives_d_and_b_students_that_train(tmp_path):
    """The documented steps on a treebank green_nlp has no config for (the fixtures): a teacher from ud_ewt.jsonnet
    with its data paths (and, to stay small, its sizes) given by -o; B-40 written while the teacher's GloVe file
    is there (read again, as student.jsonnet does), D-40 after it is gone (it starts from random vectors); both
    train for one epoch with `allennlp train` and have the parameters the sizing reported."""
    glove = tmp_path / "glove.50d.txt"
    shutil.copy(FIXTURES / "emb" / "tiny_glove.50d.txt", glove)
    teacher_run = tmp_path / "teacher"
    overrides = {
        "train_data_path": TINY_CONLLU,
        "validation_data_path": TINY_CONLLU,
        "test_data_path": TINY_CONLLU,
        f"{WORDS}.pretrained_file": str(glove),
        "model.encoder.hidden_size": 16,
        "model.encoder.num_layers": 2,
        "model.arc_mlp_dim": 32,
        "trainer.num_epochs": 1,
    }
    train_model_from_file(str(PARSER / "ud_ewt.jsonnet"), str(teacher_run), overrides=json.dumps(overrides))
    teacher = teacher_run / "model.tar.gz"
    teacher_params = count_trainable_parameters(load_archive(str(teacher)).model)

    counts = {"B": write_student_config(teacher, 0.4, tmp_path / "B.json", distilled=False)[1]}
    glove.unlink()
    counts["D"] = write_student_config(teacher, 0.4, tmp_path / "D.json")[1]
    words = {name: json.loads((tmp_path / f"{name}.json").read_text())["model"] for name in counts}
    assert words["B"]["text_field_embedder"]["token_embedders"]["tokens"]["pretrained_file"] == str(glove)
    assert "pretrained_file" not in words["D"]["text_field_embedder"]["token_embedders"]["tokens"]

    for name in ("D", "B"):
        if name == "B":
            shutil.copy(FIXTURES / "emb" / "tiny_glove.50d.txt", glove)
        model = train_model_from_file(str(tmp_path / f"{name}.json"), str(tmp_path / name))
        archived = load_archive(str(tmp_path / name / "model.tar.gz")).config.as_dict()
        assert archived["train_data_path"] == TINY_CONLLU  # the teacher's data, given to it by -o
        callbacks = archived["trainer"].get("callbacks", [])
        teachers = [c["teacher_archive"] for c in callbacks if c["type"] in DISTILLATION]
        assert teachers == ([str(teacher)] if name == "D" else [])
        assert count_trainable_parameters(model) == counts[name]
        assert 0.35 < counts[name] / teacher_params < 0.45


def test_fixture_teacher_cli(tmp_path, capsys):
    out = tmp_path / "d60.json"
    main([str(TEACHER_ARCHIVE), "--fraction", "0.6", "--write-config", str(out)])
    assert "D-60" in capsys.readouterr().out
    config = json.loads(out.read_text())
    assert config["vocabulary"] == {"type": "from_files", "directory": str(TEACHER_ARCHIVE)}
    assert config["model"]["mlp_dropout"] == config["model"]["embedding_dropout"] == 0.0


@pytest.mark.parametrize(
    "argv,message",
    [
        (["missing.tar.gz", "--fraction", "0.4"], "teacher archive not found"),
        ([str(FIXTURES / "archives"), "--fraction", "0.4"], "not a model archive"),
        ([str(FIXTURES / "ud" / "synthetic-tiny.conllu"), "--fraction", "0.4"], "not a model archive"),
        (
            [str(FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"), "--fraction", "0.4"],
            "not a green_biaffine_parser",
        ),
        ([str(TEACHER_ARCHIVE), "--fraction", "0"], r"--fraction must be above 0 and below 1 \(1 is the teacher"),
        (
            [str(TEACHER_ARCHIVE), "--fraction", "1"],
            r"must be above 0 and below 1 \(1 is the teacher itself\), got 1.0",
        ),
        ([str(TEACHER_ARCHIVE), "--fraction", "1.5"], r"must be above 0 and below 1 .*got 1.5"),
        ([str(TEACHER_ARCHIVE), "--fractions", "0.2", "0.4"], "give one --fraction"),
    ],
    ids=["missing", "folder", "not_a_tar", "not_a_parser", "zero", "one", "above_one", "two_fractions"],
)
def test_bad_teachers_and_fractions_are_refused_with_the_reason(argv, message, tmp_path, capsys):
    out = tmp_path / "student.json"
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--write-config", str(out)])
    assert exit_info.value.code == 2
    assert not list(tmp_path.iterdir())  # nothing written
    assert re.search(message, capsys.readouterr().err)


@pytest.mark.parametrize("fraction", ["1.5", "0", "-0.2"])
def test_the_sizing_table_refuses_a_fraction_outside_0_to_1_in_one_line(fraction, capsys):
    """Without --write-config, 1.5 ended in a ValueError's traceback; 1 (the teacher's own size) is a row."""
    with pytest.raises(SystemExit) as exit_info:
        main([str(TEACHER_ARCHIVE), "--fraction", fraction])
    assert exit_info.value.code == 2
    assert f"--fraction must be above 0 and at most 1, got {float(fraction)}" in capsys.readouterr().err
    main([str(TEACHER_ARCHIVE), "--fraction", "1"])
    assert "100.00% of" in capsys.readouterr().out


def test_a_teacher_with_embedders_that_cannot_be_sized_is_refused(tmp_path):
    config = read_archive(TEACHER_ARCHIVE)[0]
    config["model"]["text_field_embedder"]["token_embedders"]["transformer"] = {"type": "pass_through"}
    with pytest.raises(TeacherArchiveError, match=r"\['tokens', 'transformer'\]"):
        check_teacher_archive(archive_with_config(tmp_path / "minilm", config))
