"""The torch-free tagger runtime: imports, `green_nlp.load(...).tag`, batching and `green-nlp tag`."""

import json
import subprocess
import sys

import pytest

import green_nlp
from green_nlp.runtime import load
from tests.conftest import REPO_ROOT
from tests.export.tagger_models import fixture_sentences, tagger_folder

WORDS = ["Sarah", "Jones", "works", "for", "Reuters", "in", "London", "."]


def _run(args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600
    )


def test_runtime_tags_without_torch_or_allennlp():
    """Pre-tokenized input: spaCy's thinc imports torch where torch is installed, as for the parser."""
    script = (
        "import sys, json\n"
        "import green_nlp\n"
        f"nlp = green_nlp.load({str(tagger_folder('origin'))!r}, threads=1)\n"
        f"tagged = nlp.tag_tokens({WORDS!r})\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'allennlp', 'allennlp_models'))\n"
        "print(json.dumps({'heavy': heavy, 'tags': tagged.tags}))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["heavy"] == [] and len(report["tags"]) == len(WORDS)


def test_green_nlp_load_tags_text_and_batches_keep_input_order():
    nlp = green_nlp.load(str(tagger_folder("origin")))
    assert nlp.family == "tagger"
    lines = [" ".join(words) for words in fixture_sentences()] + ["", "One. Two three."]
    empty = len(lines) - 2  # an error in its place (issue 44: it was an empty result)
    one_by_one = [
        nlp.tag(line).to_json() if line else {"error": f"texts[{empty}] is empty: nothing to tag"} for line in lines
    ]
    for batch_size, sort_window in ((1, 1), (3, 3), (3, 7), (64, 1024)):
        tagged = nlp.tag_many(iter(lines), batch_size=batch_size, sort_window=sort_window)
        assert [r.to_json() for r in tagged] == one_by_one
    assert one_by_one[-1]["sentence_starts"] == [0, 2]
    tags = list(nlp.tag_sentences(fixture_sentences(), batch_size=5, sort_window=11))
    assert tags == [nlp.tag_tokens(words).tags for words in fixture_sentences()]


def test_bad_arguments_are_clear_errors():
    nlp = load(tagger_folder("origin"))
    with pytest.raises(ValueError, match="batch_size"):
        list(nlp.tag_many(["a"], batch_size=0))
    with pytest.raises(ValueError, match="sort_window"):
        list(nlp.tag_sentences([["a"]], sort_window=0))
    assert str(next(nlp.tag_many([["a", "b"]])).error) == "texts[0] must be a string, got a list"
    with pytest.raises(ValueError, match="^words is empty"):  # issue 44: was an empty result
        nlp.tag_tokens([])


def test_int8_precision_loads_the_int8_graph():
    nlp = load(tagger_folder("pruned"), precision="int8")
    assert nlp.session._model_path.endswith("model.int8.onnx")
    assert len(nlp.tag_tokens(WORDS).tags) == len(WORDS)


def test_green_nlp_tag_writes_json_lines_and_conll_and_reports_bad_lines(tmp_path):
    folder = tagger_folder("origin")
    good = ["Sarah Jones works for Reuters .", "Paris is in France . It rains .", "x"]
    source = tmp_path / "in.txt"
    source.write_bytes(
        b"\n".join([good[0].encode(), b"caf\xe9", json.dumps({"text": good[1]}).encode(), b"", good[2].encode()])
        + b"\n"
    )
    result = _run(["tag", str(folder), str(source), "-o", "out.jsonl", "--batch-size", "2"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    nlp = load(folder)
    nlp.segmenter.split_sentences = False  # green-nlp tag reads a line as one sentence (docs/runtime.md)
    expected = [r.to_json() for r in nlp.tag_many(good)]
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [record["line"] for record in records] == [1, 2, 3, 4, 5]  # one record per line, in place
    assert [{k: v for k, v in r.items() if k != "line"} for r in records if "error" not in r] == expected
    assert "UTF-8" in records[1]["error"] and records[3]["error"] == "blank line (no text)"
    assert f"{source}:2: not valid UTF-8" in result.stderr

    result = _run(["tag", str(folder), str(source), "--format", "conll", "-o", "out.conll"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    blocks = (tmp_path / "out.conll").read_text(encoding="utf-8").split("\n\n")
    assert blocks[0].splitlines() == ["# line = 1"] + [
        f"{w}\t{t}" for w, t in zip(expected[0]["words"], expected[0]["tags"])
    ]
    assert len([line for line in (tmp_path / "out.conll").read_text().splitlines() if "\t" in line]) == sum(
        len(record["words"]) for record in expected
    )


def test_a_tagger_is_not_a_parser(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("Sarah left .\n")
    result = _run(["parse", str(tagger_folder("origin")), str(source)], cwd=tmp_path)
    assert result.returncode == 2 and "is a tagger, which does not parse: use green-nlp tag" in result.stderr
    assert "Traceback" not in result.stderr
