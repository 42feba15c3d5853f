"""`green-predict --ray` and `green-nlp parse --ray` write what the one-process run writes: the same
bytes of output, the same skipped-line records, even when an actor dies mid-run."""

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.commands.green_predict import BulkPredictor, build_predictor, predictor_model
from green_nlp.distributed_ray.lines import stream_lines
from green_nlp.distributed_ray.options import RayOptions
from green_nlp.line_stream import LineStreamer, StreamReport
from tests.conftest import FIXTURES, REPO_ROOT
from tests.dan_helpers import DAN_FIXTURES, tiny_dan_run
from tests.distributed_ray.conftest import needs_ray, parser_lines, with_bad_lines, write_lines

PARSER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"
TAGGER = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"
TWO_ACTORS = RayOptions(actors=2)
pytestmark = needs_ray


def _sentences():
    from green_nlp.dataset_readers import read_conllu

    return [" ".join(s.words) for s in read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu")]


def _dan_texts():
    return [line.split("\t")[0] for line in (DAN_FIXTURES / "sst2_train.tsv").read_text().splitlines()[1:]]


def _one_process(archive: str, args: str, path: Path, batch_size: int) -> tuple[str, str, StreamReport]:
    output, errors = io.StringIO(), io.StringIO()
    report = BulkPredictor(build_predictor(archive, predictor_args=args), batch_size).run(
        path, output, progress=False, errors=errors
    )
    return output.getvalue(), errors.getvalue(), report


def _on_ray(
    make_model: Callable, path: Path, batch_size: int, options: RayOptions = TWO_ACTORS
) -> tuple[str, str, StreamReport]:
    output, errors = io.StringIO(), io.StringIO()
    report = stream_lines(make_model, path, output, options, batch_size, progress=False, errors=errors)
    return output.getvalue(), errors.getvalue(), report


def _archive_model(archive: Path, args: str = ""):
    return partial(predictor_model, str(archive), None, args, -1, "", 1)


MODELS = {  # archive, predictor arguments, input lines
    "parser": lambda: (PARSER, '{"output_format": "json"}', parser_lines()),
    "tagger": lambda: (TAGGER, "", with_bad_lines(_sentences()[:20], mismatched='{"words": "abc"}')),
    "dan": lambda: (tiny_dan_run() / "model.tar.gz", "", with_bad_lines(_dan_texts()[:30], mismatched='{"text": 5}')),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_outputs_and_error_records_are_the_one_process_bytes(name, ray_cluster, tmp_path):
    archive, args, lines = MODELS[name]()
    path = write_lines(tmp_path / "input.txt", lines)
    expected = _one_process(str(archive), args, path, batch_size=3)
    got = _on_ray(_archive_model(archive, args), path, batch_size=3)
    assert got[0] == expected[0] and got[0].count("\n") >= 20
    assert got[1] == expected[1]  # the --errors-file records, in the same order
    assert {json.loads(line)["line"] for line in got[1].splitlines()} >= {3, 6, 12}  # broken JSON, latin-1, refused
    assert (got[2].predicted, got[2].blank, got[2].errors) == (
        expected[2].predicted,
        expected[2].blank,
        expected[2].errors,
    )
    assert got[2].summary("green-predict", path) == expected[2].summary("green-predict", path)


def test_a_killed_actor_loses_and_doubles_nothing(ray_cluster, tmp_path):
    """The first actor to reach its 3rd batch exits (os._exit, as a crashed machine): Ray restarts it,
    the restarted actor loads the archive again and the unanswered batches are run again."""
    path = write_lines(tmp_path / "input.txt", parser_lines(40))
    expected = _one_process(str(PARSER), '{"output_format": "json"}', path, batch_size=2)
    ray_cluster.write_text("3")  # armed: see green_nlp.distributed_ray.pool.crash_point
    got = _on_ray(_archive_model(PARSER, '{"output_format": "json"}'), path, batch_size=2)
    assert not ray_cluster.exists(), "no actor crashed: the test would prove nothing"
    assert got[0] == expected[0] and got[1] == expected[1]
    assert got[2].predicted == expected[2].predicted == 40


def test_a_model_that_cannot_take_the_input_stops_the_run(ray_cluster, tmp_path):
    """Raw text for a parser that needs gold UPOS: the same ConfigurationError as in one process."""
    path = write_lines(tmp_path / "raw.txt", ["the cat sat .", "a dog ran ."])
    with pytest.raises(ConfigurationError, match="UPOS"):
        _on_ray(_archive_model(PARSER), path, batch_size=4, options=RayOptions(actors=1))


def test_runtime_parse_on_ray_matches_one_process(ray_cluster, tmp_path):
    from green_nlp.cli import runtime_line_model

    path = write_lines(tmp_path / "raw.txt", with_bad_lines(_sentences()[:16], mismatched='{"text": ["a"]}'))
    make_model = partial(runtime_line_model, "parse", "en-ewt-parser", "auto", 1, "conllu")
    output, errors = io.StringIO(), io.StringIO()
    expected = LineStreamer(make_model(), 4).run(path, output, progress=False, errors=errors)
    got = _on_ray(make_model, path, batch_size=4)
    assert got[0] == output.getvalue() and got[1] == errors.getvalue() and got[2].errors == expected.errors


def test_cli_joins_a_running_cluster_with_ray_auto(ray_cluster, tmp_path):
    """`allennlp green-predict --ray auto` finds the instance this module started and writes the
    one-process output, errors file and summary."""
    import ray

    path = write_lines(tmp_path / "input.txt", parser_lines(12))
    expected = _one_process(str(PARSER), '{"output_format": "json"}', path, batch_size=4)
    out, err = tmp_path / "out.jsonl", tmp_path / "errors.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "green-predict",
            str(PARSER),
            str(path),
            "--output-file",
            str(out),
            "--errors-file",
            str(err),
            "--batch-size",
            "4",
            "--predictor-args",
            '{"output_format": "json"}',
            "--no-progress",
            "--include-package",
            "green_nlp",
            "--ray",
            "auto",
            "--ray-actors",
            "2",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        # "auto" reads RAY_ADDRESS first; without it, it joins the newest local instance, which under
        # pytest -n 2 may be the other worker's, shut down mid-run ("The actor never ran")
        env={**os.environ, "RAY_ADDRESS": ray.get_runtime_context().gcs_address},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert out.read_text() == expected[0] and err.read_text() == expected[1]
    assert expected[2].summary("green-predict", path) in result.stderr


@pytest.mark.parametrize("command", ["parse", "classify"])
def test_runtime_records_on_ray_are_one_per_line_as_in_one_process(command, ray_cluster, tmp_path):
    """Blank, non-UTF-8, broken-JSON and over-long lines with CRLF and CR-only line ends: one record
    per line with its number, the one-process bytes (issue 43)."""
    from green_nlp.cli import runtime_line_model
    from tests.runtime.cli_records_test import _mixed

    path = _mixed(tmp_path)
    model = "en-ewt-parser" if command == "parse" else "en-sst2-sentiment"
    make_model = partial(runtime_line_model, command, model, "auto", 1, "json")
    output, errors = io.StringIO(), io.StringIO()
    expected = LineStreamer(make_model(), 2).run(path, output, progress=False, errors=errors)
    got = _on_ray(make_model, path, batch_size=2)
    assert got[0] == output.getvalue() and got[1] == errors.getvalue()
    assert [json.loads(line)["line"] for line in got[0].splitlines()] == list(range(1, 10))
    assert (got[2].predicted, got[2].blank, got[2].errors, got[2].warnings, got[2].tallies) == (
        expected.predicted,
        expected.blank,
        expected.errors,
        expected.warnings,
        expected.tallies,
    )
    assert bool(expected.tallies) == (command == "parse")  # the parser counts unknown words
