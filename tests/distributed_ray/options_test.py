"""The `--ray` switches parse without Ray: nothing imports `ray` unless `--ray` is given."""

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT


def _modules_after(code: str) -> list:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            code + "\nimport sys, json\nprint(json.dumps(sorted(m for m in ('ray',) if m in sys.modules)))",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO_ROOT,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_commands_and_their_help_do_not_import_ray():
    code = (
        "import argparse, green_nlp, green_nlp.cli\n"
        "from green_nlp.commands.green_predict import GreenPredict\n"
        "from green_nlp.commands.green_label_teacher import GreenLabelTeacher\n"
        "parser = argparse.ArgumentParser(); subparsers = parser.add_subparsers()\n"
        "GreenPredict().add_subparser(subparsers); GreenLabelTeacher().add_subparser(subparsers)\n"
        "green_nlp.cli._runtime_parser().parse_args(['parse', 'm', 'in.txt', '--ray', 'auto'])\n"
    )
    assert _modules_after(code) == []


@pytest.mark.parametrize(
    "argv,expected",
    [
        ([], None),
        (["--ray"], ("local", None)),
        (["--ray", "auto", "--ray-actors", "3"], ("auto", 3)),
        (["--ray", "10.0.0.1:6379", "--ray-gpus-per-actor", "1"], ("10.0.0.1:6379", None)),
    ],
)
def test_ray_switch(argv, expected):
    import argparse

    from green_nlp.distributed_ray.options import add_ray_arguments, ray_options

    parser = argparse.ArgumentParser()
    add_ray_arguments(parser)
    options = ray_options(parser.parse_args(argv))
    assert (options if options is None else (options.address, options.actors)) == expected


def test_bad_actor_counts_are_refused():
    import argparse

    from green_nlp.distributed_ray.options import add_ray_arguments, ray_options

    parser = argparse.ArgumentParser()
    add_ray_arguments(parser)
    with pytest.raises(ValueError, match="--ray-actors"):
        ray_options(parser.parse_args(["--ray", "--ray-actors", "0"]))
    # without --ray too: a value that cannot work is not ignored in silence
    with pytest.raises(ValueError, match="--ray-actors must be positive, got 0"):
        ray_options(parser.parse_args(["--ray-actors", "0"]))
    with pytest.raises(ValueError, match="--ray-cpus-per-actor must be positive"):
        ray_options(parser.parse_args(["--ray-cpus-per-actor", "-1"]))
