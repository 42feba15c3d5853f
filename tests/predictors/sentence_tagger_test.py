import json
import subprocess
import sys

import pytest

from green_nlp.dataset_readers.conll_tagging import bioes_to_spans
from tests.conftest import FIXTURES, REPO_ROOT

ORIGIN = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"
PARSER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"


def test_allennlp_predict_on_raw_text_gives_words_tags_and_spans(tmp_path):
    text = tmp_path / "raw.txt"
    text.write_text("Peter Blackburn works for BMW in Paris. He didn't stay.\n\nReuters said Mary would resign.\n")
    out = tmp_path / "out.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "predict",
            str(ORIGIN),
            str(text),
            "--output-file",
            str(out),
            "--silent",
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2  # one per input line (`allennlp predict` itself skips blank lines)
    first = records[0]
    # spaCy's rule-based tokenizer: "didn't" -> "did", "n't"; two sentences
    assert first["words"] == [
        "Peter",
        "Blackburn",
        "works",
        "for",
        "BMW",
        "in",
        "Paris",
        ".",
        "He",
        "did",
        "n't",
        "stay",
        ".",
    ]
    assert first["sentence_starts"] == [0, 8]
    assert len(first["tags"]) == len(first["words"])
    assert all(tag == "O" or tag[:2] in ("B-", "I-", "E-", "S-") for tag in first["tags"])
    for record in records:
        expected = []
        for start in record["sentence_starts"]:
            end = next((s for s in record["sentence_starts"] if s > start), len(record["words"]))
            spans = bioes_to_spans(record["tags"][start:end])
            expected += [(label, s + start, e + start + 1) for label, (s, e) in spans]
        assert [(s["label"], s["start"], s["end"]) for s in record["spans"]] == expected
        for span in record["spans"]:
            assert span["text"] == " ".join(record["words"][span["start"] : span["end"]])


@pytest.fixture(scope="module")
def tagger():
    from allennlp.predictors import Predictor

    return Predictor.from_path(str(ORIGIN), "green_sentence_tagger")


@pytest.mark.parametrize(
    "record, why",
    [
        ({"sentence": ""}, "no words to tag in 'sentence'"),
        ({"sentence": " \t "}, "no words to tag in 'sentence'"),
        ({"words": []}, "no tokens to tag"),
    ],
)
def test_a_line_without_words_is_an_error_record_as_in_the_parser_predictor(tagger, record, why):
    """Not an empty record that reads as tagged (issue 43: one record per line, a blank text an
    error in its place); the parser predictor words the same two cases the same way."""
    from allennlp.models.archival import load_archive
    from allennlp.predictors import Predictor

    assert tagger.predict_json(dict(record)) == {"error": why}
    parser = Predictor.from_archive(load_archive(str(PARSER)), "green_dependency_parser")
    assert parser.predict_json(dict(record))["error"] == why.replace("tag", "parse")


def test_a_text_field_is_read_as_green_nlp_tag_and_the_other_predictors_read_it(tagger):
    assert tagger.predict_json({"text": "Peter lives in Paris ."}) == tagger.predict_json(
        {"sentence": "Peter lives in Paris ."}
    )
    assert tagger.predict_json({"text": "Paris .", "sentence": "Paris ."})["words"] == ["Paris", "."]
    with pytest.raises(ValueError, match="fields 'sentence' and 'text' hold different texts: give one"):
        tagger.predict_json({"text": "Paris .", "sentence": "Rome ."})
    with pytest.raises(ValueError, match=r"^input needs a 'sentence' or 'text' \(text\) or 'words'"):
        tagger.predict_json({"txt": "Paris ."})


def test_raw_text_without_words_and_its_neighbours_in_one_batch(tagger):
    lines = ["Peter lives in Paris .", "   ", "Mary works for BMW ."]
    got = tagger.predict_batch_json([tagger.load_line(line) for line in lines])
    assert got[1] == {"error": "no words to tag in 'sentence'"}
    assert [got[0], got[2]] == [tagger.predict_json({"sentence": line}) for line in lines[::2]]
    assert got[0]["words"] == ["Peter", "lives", "in", "Paris", "."]
    assert tagger.predict_json({"words": ["Paris", "."], "line": 7})["words"] == ["Paris", "."]
    assert tagger.predict_json({"words": [], "line": 7}) == {"error": "no tokens to tag", "line": 7}


def test_green_predict_gives_each_line_without_words_an_error_record_in_its_place(tmp_path):
    """Raw and JSON lines without words: a record per line, the failed ones counted as skipped."""
    text = tmp_path / "in.txt"
    text.write_text('Peter lives in Paris .\n\n{"sentence": "  "}\n{"words": []}\nMary works for BMW .\n')
    out = tmp_path / "out.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", "green-predict", str(ORIGIN), str(text), "--output-file", str(out)]
        + ["--no-progress", "--include-package", "green_nlp"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [record["line"] for record in records] == [1, 2, 3, 4, 5]
    assert [record.get("error") for record in records] == [
        None,
        "blank line (no text)",
        "no words to tag in 'sentence'",
        "no tokens to tag",
        None,
    ]
    assert "2 lines predicted, 2 skipped, 1 blank" in result.stderr
