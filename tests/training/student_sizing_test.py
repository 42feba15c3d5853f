import json
import subprocess
import sys

import pytest

from green_nlp.training.student_config import apply_dims
from green_nlp.training.student_sizing import count_parameters, load_teacher_spec, size_student, student_dims
from tests.conftest import FIXTURES, REPO_ROOT

TEACHER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"


@pytest.fixture(scope="module")
def teacher_spec():
    return load_teacher_spec(TEACHER)


def test_scale_one_reproduces_the_teacher(teacher_spec):
    model_params, vocab = teacher_spec
    from allennlp.models.archival import load_archive

    teacher = load_archive(str(TEACHER)).model
    expected = sum(p.numel() for p in teacher.parameters() if p.requires_grad)
    assert count_parameters(apply_dims(model_params, student_dims(model_params, 1.0)), vocab) == expected


@pytest.mark.parametrize("fraction", [0.4, 0.6])
def test_reached_fraction_is_close_and_exact(teacher_spec, fraction):
    model_params, vocab = teacher_spec
    dims, count, reached = size_student(model_params, vocab, fraction)
    assert abs(reached - fraction) < 0.05  # tiny models move in coarse steps
    assert count_parameters(apply_dims(model_params, dims), vocab) == count  # the count is real
    assert dims["lstm_hidden"] < model_params["encoder"]["hidden_size"]


def test_bad_fraction_is_rejected(teacher_spec):
    with pytest.raises(ValueError, match="fraction"):
        size_student(*teacher_spec, fraction=1.5)


def test_command_line_writes_sizes(tmp_path):
    out = tmp_path / "sizes.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "green_nlp.training.student_sizing",
            str(TEACHER),
            "--fractions",
            "0.5",
            "--out",
            str(out),
        ],
        cwd=REPO_ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    sizes = json.loads(out.read_text())
    assert set(sizes["students"]) == {"50"} and sizes["teacher"]["params"] > sizes["students"]["50"]["params"]
