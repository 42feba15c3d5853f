import json
import subprocess
import sys

from green_nlp.dataset_readers.conll_tagging import bioes_to_spans
from tests.conftest import FIXTURES, REPO_ROOT

ORIGIN = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"


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


def test_text_without_words_gives_empty_lists():
    from allennlp.predictors import Predictor

    predictor = Predictor.from_path(str(ORIGIN), "green_sentence_tagger")
    empty = {"words": [], "tags": [], "sentence_starts": [], "spans": []}
    assert predictor.predict_json(predictor.load_line("   ")) == empty
    assert predictor.predict_json({"words": ["Paris", "."]})["words"] == ["Paris", "."]
