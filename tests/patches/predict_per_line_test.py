"""Plain `allennlp predict` with green_nlp's predictors keeps going past bad lines (issue 34).

Each input file mixes good lines with a non-UTF-8 line, a blank line, a JSON line whose fields do
not fit the predictor and a broken JSON line. The real `allennlp predict` (run from a temporary
folder) must write every good line's output, in order, and one error record per bad line, naming
its physical line number (blank lines counted), at that line's place; stderr names `file:line`.
"""

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

import pytest
from allennlp.commands.predict import _PredictManager
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.dataset_readers import read_conllu
from green_nlp.line_stream import json_object
from green_nlp.patches import predict_per_line
from tests.conftest import FIXTURES, REPO_ROOT
from tests.dan_helpers import tiny_dan_run

PARSER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"  # trained with gold UPOS: JSON input
TAGGER = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"

NON_UTF8 = b"caf\xe9 au lait in Paris"
BROKEN_JSON = b'{"sentence": "an unclosed string'


def _write_input(folder: Path, good: Sequence[bytes], mismatched: bytes) -> tuple[Path, list[tuple[str, int]]]:
    """good[0], good[1], non-UTF-8, good[2], blank, mismatched, good[3], broken JSON, spaces, good[4:] ...

    Returns the file and what each output record must be, in order: ("good", index into `good`) or
    ("error", physical line number).
    """
    assert len(good) >= 5
    lines: list[bytes] = [good[0], good[1], NON_UTF8, good[2], b"", mismatched, good[3], BROKEN_JSON, b"   "]
    lines += list(good[4:])
    expected: list[tuple[str, int]] = []
    next_good = 0
    for number, line in enumerate(lines, start=1):
        if line in (NON_UTF8, mismatched, BROKEN_JSON):
            expected.append(("error", number))
        elif line.strip():
            expected.append(("good", next_good))
            next_good += 1
    path = folder / "input.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, expected


def _predict(archive: Path, input_file: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    # PYTHONPATH: this checkout's green_nlp (a shared virtual environment's editable install may name another)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "predict",
            str(archive),
            input_file.name,
            *args,
            "--include-package",
            "green_nlp",
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def _check_records(
    records: list[Any],
    expected: list[tuple[str, int]],
    good_outputs: list[Any],
    is_error: Callable[[Any], Optional[int]],
    same: Callable[[Any, Any], bool],
) -> None:
    assert len(records) == len(expected), (len(records), expected)
    for record, (kind, value) in zip(records, expected):
        if kind == "error":
            assert is_error(record) == value, (record, value)
        else:
            assert is_error(record) is None, record
            assert same(record, good_outputs[value]), (record, good_outputs[value])


def _check_stderr(stderr: str, input_file: Path, expected: list[tuple[str, int]]) -> None:
    bad = [value for kind, value in expected if kind == "error"]
    for number in bad:
        assert f"{input_file.name}:{number}:" in stderr, stderr[-3000:]
    assert f"{input_file.name}:{bad[0]}: not valid UTF-8" in stderr
    assert "Traceback" not in stderr


def _json_error_line(record: dict[str, Any]) -> Optional[int]:
    return record["line"] if "error" in record else None


# ------------------------------------------------------------------------------------- parser
def test_parser_conllu_output_keeps_every_good_line_in_order(tmp_path):
    sentences = [{"words": s.words, "upos": s.upos} for s in read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu")][:7]
    mismatched = json.dumps({"words": ["a", "cat"], "upos": ["DET"]}).encode()  # one tag for two words
    input_file, expected = _write_input(tmp_path, [json.dumps(s).encode() for s in sentences], mismatched)
    predictor = Predictor.from_archive(load_archive(str(PARSER)))
    good_outputs = [predictor.dump_line(predictor.predict_json(dict(s))) for s in sentences]

    result = _predict(PARSER, input_file, tmp_path, "--output-file", "out.conllu", "--silent", "--batch-size", "3")
    blocks = [block + "\n\n" for block in (tmp_path / "out.conllu").read_text().split("\n\n") if block.strip()]

    def error_line(block: str) -> Optional[int]:
        first, _, second = block.partition("\n")
        if not (first.startswith("# line = ") and second.startswith("# error = ")):
            return None
        return int(first[len("# line = ") :])

    def numbered(block: str, output: str) -> bool:
        """A good line's block: `# sent_id = N` and `# line = N` (one sentence a line), then the output."""
        sent_id, line, rest = block.split("\n", 2)
        number = line[len("# line = ") :]
        return line.startswith("# line = ") and sent_id == f"# sent_id = {number}" and rest == output

    _check_records(blocks, expected, good_outputs, error_line, numbered)
    numbers = [int(block.split("# line = ", 1)[1].split("\n", 1)[0]) for block in blocks]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)  # each block its own line, in order
    _check_stderr(result.stderr, input_file, expected)
    assert "not valid UTF-8" in blocks[2] and "'upos' has 1 tags for 2 'words'" in blocks[4]
    assert "broken JSON" in blocks[6]


def test_parser_json_output_batch_size_one(tmp_path):
    sentences = [{"words": s.words, "upos": s.upos} for s in read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu")][:5]
    mismatched = json.dumps({"words": ["a", "cat"], "upos": ["DET"]}).encode()
    input_file, expected = _write_input(tmp_path, [json.dumps(s).encode() for s in sentences], mismatched)
    predictor = Predictor.from_archive(load_archive(str(PARSER)), extra_args={"output_format": "json"})
    good_outputs = [predictor.predict_json(dict(s)) for s in sentences]

    result = _predict(
        PARSER,
        input_file,
        tmp_path,
        "--output-file",
        "out.jsonl",
        "--silent",
        "--predictor-args",
        '{"output_format": "json"}',
    )  # AllenNLP's default --batch-size 1
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    _check_records(records, expected, good_outputs, _json_error_line, lambda a, b: a == b)
    _check_stderr(result.stderr, input_file, expected)


# ------------------------------------------------------------------------------------- tagger
def test_tagger_keeps_every_good_line_in_order(tmp_path):
    texts = [
        "Peter Blackburn works for BMW in Paris .",
        "Reuters said Mary would resign .",
        "Germany and France signed a deal .",
        "John lives in New York .",
        "EU rejects German call .",
        "Angela Merkel visited Britain on Monday .",
    ]
    mismatched = json.dumps({"review": "Paris is nice ."}).encode()  # the tagger reads "sentence", "text" or "words"
    input_file, expected = _write_input(tmp_path, [t.encode() for t in texts], mismatched)
    predictor = Predictor.from_archive(load_archive(str(TAGGER)))
    good_outputs = [predictor.predict_json({"sentence": t}) for t in texts]

    result = _predict(TAGGER, input_file, tmp_path, "--output-file", "out.jsonl", "--silent", "--batch-size", "2")
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    _check_records(records, expected, good_outputs, _json_error_line, lambda a, b: a == b)
    _check_stderr(result.stderr, input_file, expected)
    assert set(records[4]) == {"error", "line"} and "'sentence'" in records[4]["error"]
    assert records[4]["error"].endswith("the line has ['review']")  # not the line number predict adds (issue 44)


def _tagger_case(folder: Path) -> tuple[Path, list[tuple[str, int]], list[Any]]:
    texts = [
        "Peter Blackburn works for BMW in Paris .",
        "Reuters said Mary would resign .",
        "Germany and France signed a deal .",
        "John lives in New York .",
        "EU rejects German call .",
    ]
    input_file, expected = _write_input(folder, [t.encode() for t in texts], json.dumps({"review": "x"}).encode())
    predictor = Predictor.from_archive(load_archive(str(TAGGER)))
    return input_file, expected, [predictor.predict_json({"sentence": t}) for t in texts]


def test_tagger_reads_standard_input_line_by_line(tmp_path):
    input_file, expected, good_outputs = _tagger_case(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    with open(input_file, "rb") as stdin:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "allennlp",
                "predict",
                str(TAGGER),
                "-",
                "--output-file",
                "out.jsonl",
                "--silent",
                "--batch-size",
                "2",
                "--include-package",
                "green_nlp",
            ],
            stdin=stdin,
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert result.returncode == 0, result.stderr[-3000:]
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    _check_records(records, expected, good_outputs, _json_error_line, lambda a, b: a == b)
    bad = [value for kind, value in expected if kind == "error"]
    assert all(f"-:{number}:" in result.stderr for number in bad), result.stderr[-3000:]


def test_tagger_reads_a_gzip_file_line_by_line(tmp_path):
    import gzip

    plain, expected, good_outputs = _tagger_case(tmp_path)
    packed = tmp_path / "input.txt.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    result = _predict(TAGGER, packed, tmp_path, "--output-file", "out.jsonl", "--silent", "--batch-size", "2")
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    _check_records(records, expected, good_outputs, _json_error_line, lambda a, b: a == b)
    _check_stderr(result.stderr, packed, expected)


# --------------------------------------------------------------------------------- classifier
def _same_prediction(record: dict[str, Any], reference: dict[str, Any]) -> bool:
    return (
        record["label"] == reference["label"]
        and record["label_names"] == reference["label_names"]
        and record["probs"] == pytest.approx(reference["probs"], abs=1e-5)
    )


def test_classifier_keeps_every_good_line_in_order(tmp_path):
    archive = tiny_dan_run() / "model.tar.gz"
    texts = [
        "the film is wonderful and charming",
        "a dull and boring plot",
        "great",
        "zzzz unknown words",
        "i found the script moving",
        "the plot is awful",
    ]
    mismatched = json.dumps({"words": ["great", "film"]}).encode()  # the classifier reads "text" or "sentence"
    input_file, expected = _write_input(tmp_path, [t.encode() for t in texts], mismatched)
    predictor = Predictor.from_archive(load_archive(str(archive)))
    good_outputs = [predictor.predict_json({"text": t}) for t in texts]

    result = _predict(archive, input_file, tmp_path, "--output-file", "out.jsonl", "--silent", "--batch-size", "4")
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    _check_records(records, expected, good_outputs, _json_error_line, _same_prediction)
    _check_stderr(result.stderr, input_file, expected)
    mismatched_record = next(record for record in records if record.get("line") == 6)
    # the keys the user wrote, not the line number predict adds (issue 44: "got keys ['line', 'words']")
    assert mismatched_record["error"].endswith("the line has keys ['words']"), mismatched_record


def test_classifier_console_output_is_allennlps_with_error_records(tmp_path):
    """Without --silent and --output-file, AllenNLP prints `input N:` / `prediction:` per line."""
    archive = tiny_dan_run() / "model.tar.gz"
    texts = ["great", "a dull and boring plot", "the plot is awful", "i found the script moving", "charming"]
    input_file, expected = _write_input(tmp_path, [t.encode() for t in texts], b'{"review": "x"}')
    result = _predict(archive, input_file, tmp_path)
    predictions = [
        line[len("prediction:  ") :] for line in result.stdout.splitlines() if line.startswith("prediction:")
    ]
    inputs = [line for line in result.stdout.splitlines() if line.startswith("input ")]
    assert len(predictions) == len(expected)
    errors = [json.loads(p)["line"] for p in predictions if "error" in json.loads(p)]
    assert errors == [value for kind, value in expected if kind == "error"]
    assert len(inputs) == len(texts) and json.loads(inputs[0].split(": ", 1)[1]) == {"text": "great"}


# ------------------------------------------------------------------------------- the patch itself
class _EchoPredictor(Predictor):
    """Not a green_nlp predictor: JSON in, the same JSON out."""

    def __init__(self) -> None:  # no model needed
        pass

    def load_line(self, line: str) -> dict[str, Any]:
        return json.loads(line)

    def predict_json(self, inputs: dict[str, Any]) -> dict[str, Any]:
        return inputs

    def predict_batch_json(self, inputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return inputs

    def dump_line(self, outputs: dict[str, Any]) -> str:
        return json.dumps(outputs) + "\n"


def test_patch_is_idempotent_and_marked():
    predict_per_line.apply()
    assert predict_per_line.is_applied()
    run = _PredictManager.run
    assert predict_per_line.apply() is False
    assert _PredictManager.run is run


CONLLU_FILE = "# sent_id = 1\n# text = Dogs bark .\n1\tDogs\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n"


@pytest.mark.parametrize("reader", [False, True])
def test_a_folder_as_the_input_is_refused_in_one_line_before_any_prediction(tmp_path, reader):
    """AllenNLP opened the folder as a file and ended in IsADirectoryError's traceback."""
    from allennlp.common.checks import ConfigurationError

    predict_per_line.apply()
    predictor = Predictor.from_archive(load_archive(str(PARSER)))
    folder, out = tmp_path / "texts", tmp_path / "out.txt"
    folder.mkdir()
    manager = _PredictManager(predictor, str(folder), str(out), 1, False, reader)  # with --use-dataset-reader too
    with pytest.raises(ConfigurationError, match=f"^{folder} is a folder, not an input file: give a file, or -"):
        manager.run()
    assert out.read_text() == "" and manager._output_file.closed


PARSER_LINE = json.dumps({"words": ["Dogs", "bark", "."], "upos": ["NOUN", "VERB", "PUNCT"]})


@pytest.mark.parametrize(
    "archive, good_line, why",
    [
        (PARSER, PARSER_LINE, "predict reads as raw text or JSON lines only: add --use-dataset-reader"),
        (None, "Dogs bark .", "the model reads one text per line"),  # the tiny DAN: it would classify each row
    ],
)
def test_a_conllu_file_is_refused_whole_before_any_line(tmp_path, archive, good_line, why):
    from allennlp.common.checks import ConfigurationError

    predict_per_line.apply()
    predictor = Predictor.from_archive(load_archive(str(archive or tiny_dan_run() / "model.tar.gz")))
    path, out = tmp_path / "input.conllu", tmp_path / "out.txt"
    path.write_text(CONLLU_FILE + good_line + "\n")
    manager = _PredictManager(predictor, str(path), str(out), 1, False, False)
    with pytest.raises(ConfigurationError, match=f"^{path}: this looks like CoNLL-U.*{why}"):
        manager.run()
    assert out.read_text() == "" and manager._output_file.closed
    path.write_text(good_line + "\n" + CONLLU_FILE)  # a row inside a text file fails alone, as before
    _PredictManager(predictor, str(path), str(out), 1, False, False).run()
    assert len(out.read_text().strip().splitlines()) >= 2


def test_other_predictors_keep_allennlps_behaviour(tmp_path):
    predict_per_line.apply()
    path = tmp_path / "input.jsonl"
    path.write_text('{"a": 1}\n\n{"b": 2}\n')
    manager = _PredictManager(_EchoPredictor(), str(path), str(tmp_path / "out.jsonl"), 1, False, False)
    manager.run()
    assert (tmp_path / "out.jsonl").read_text() == '{"a": 1}\n{"b": 2}\n'
    path.write_text('{"a": 1}\n{"broken\n{"b": 2}\n')
    manager = _PredictManager(_EchoPredictor(), str(path), str(tmp_path / "out.jsonl"), 1, False, False)
    with pytest.raises(json.JSONDecodeError):  # AllenNLP's own loop, untouched: the run stops
        manager.run()


@pytest.mark.parametrize(
    "line, expected",
    [
        ('{"text": "x"}', {"text": "x"}),
        ("plain text", None),
        ("[Laughter] a bracket", None),
        ("a {brace} inside", None),
    ],
)
def test_load_json_object_reads_objects_and_leaves_text(line, expected):
    assert json_object(line) == expected


def test_a_json_array_line_is_refused_not_read_as_prose():
    """`["a fine film", 1]` is data in the wrong shape, as the dataset readers say (issue 44)."""
    with pytest.raises(ValueError, match=r"a JSON array \(2 items\), not an object or text"):
        json_object('["a fine film", 1]')


@pytest.mark.parametrize(
    "line", ['{"text": "unclosed', "{not json} at all", "{'text': 'python quotes'}", "{text: no quotes}"]
)
def test_load_json_object_refuses_a_broken_object(line):
    with pytest.raises(ValueError, match="broken JSON object"):
        json_object(line)
