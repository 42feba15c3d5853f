"""`green-nlp parse|tag|classify`: one output record per input line, carrying its line number, for a
file mixing good, blank, non-UTF-8, broken-JSON and over-long lines with LF, CRLF and CR-only line
ends; `--fail-on-error`; one sentence per line unless `--split-sentences`; the classifier's
`--no-known-features`. The CLI runs in-process (`run_runtime` returns the exit status)."""

import json
from pathlib import Path

import pytest

from green_nlp.cli import run_runtime
from green_nlp.runtime import load

LONG = " ".join(["word"] * 1001) + " ."  # over the shipped parser's max_sentence_length (1000)
BLANK = "blank line (no text)"


def _mixed(tmp_path: Path) -> Path:
    """Lines 1-9: two sentences (CR), blank (CRLF), latin-1 (CR), `???` (CR), broken JSON (LF),
    over-long (LF), JSON text (LF), whitespace only (CR), one sentence without a line end. The first
    line end is a lone CR, so every kind ends a line (`line_stream.split_lines`)."""
    path = tmp_path / "mixed.txt"
    path.write_bytes(
        b"The cat sat. It was happy.\r"
        b"\r\n"
        b"caf\xe9 au lait\r"
        b"???\r"
        b'{"text": "unclosed\n' + LONG.encode() + b"\n"
        b'{"text": "Dogs bark."}\n'
        b"   \r"
        b"Birds sing."
    )
    return path


def _run(args: list[str]) -> int:
    return run_runtime([*args, "--no-progress"])


def _json_records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _blocks(path: Path) -> list[str]:
    return [block for block in path.read_text(encoding="utf-8").split("\n\n") if block.strip()]


def test_parse_gives_one_numbered_record_per_line_and_fails_when_asked(tmp_path: Path, capsys):
    source, out = _mixed(tmp_path), tmp_path / "out.jsonl"
    assert _run(["parse", "en-ewt-parser", str(source), "--format", "json", "-o", str(out), "--batch-size", "2"]) == 0
    records = _json_records(out)
    assert [record["line"] for record in records] == list(range(1, 10))
    errors = {record["line"]: record["error"] for record in records if "error" in record}
    assert sorted(errors) == [2, 3, 5, 6, 8]
    assert errors[2] == errors[8] == BLANK
    assert "UTF-8" in errors[3] and "broken JSON" in errors[5] and "max_sentence_length" in errors[6]
    first = records[0]["sentences"]
    assert len(first) == 1 and first[0]["words"] == ["The", "cat", "sat", ".", "It", "was", "happy", "."]
    assert [s["words"] for s in records[6]["sentences"]] == [["Dogs", "bark", "."]]
    assert [s["words"] for s in records[8]["sentences"]] == [["Birds", "sing", "."]]
    assert "4 lines predicted, 3 skipped, 2 blank" in capsys.readouterr().err
    strict = _run(["parse", "en-ewt-parser", str(source), "-o", str(tmp_path / "s.conllu"), "--fail-on-error"])
    assert strict == 1 and "--fail-on-error" in capsys.readouterr().err
    good = tmp_path / "good.txt"
    good.write_text("Dogs bark.\n")
    assert _run(["parse", "en-ewt-parser", str(good), "-o", str(tmp_path / "g.conllu"), "--fail-on-error"]) == 0


def test_parse_conllu_numbers_blocks_and_splits_only_when_asked(tmp_path: Path):
    source, out = _mixed(tmp_path), tmp_path / "out.conllu"
    assert _run(["parse", "en-ewt-parser", str(source), "-o", str(out)]) == 0
    blocks = _blocks(out)
    failed = {2, 3, 5, 6, 8}  # a failed line's block is its number and why: it has no sentence to name
    opening = [f"# line = {n}" if n in failed else f"# sent_id = {n}\n# line = {n}" for n in range(1, 10)]
    assert [block.split("\n# text = ")[0].split("\n# error = ")[0] for block in blocks] == opening
    assert blocks[1] == f"# line = 2\n# error = {BLANK}"
    assert blocks[0].split("\n")[2] == "# text = The cat sat. It was happy."
    split = tmp_path / "split.conllu"
    assert _run(["parse", "en-ewt-parser", str(source), "-o", str(split), "--split-sentences"]) == 0
    split_blocks = _blocks(split)
    # UD's validator wants a sent_id unique in the file: a line's sentences are n-1, n-2 ...
    assert [block.split("\n")[0] for block in split_blocks[:3]] == ["# sent_id = 1-1", "# sent_id = 1-2", "# line = 2"]
    nlp = load("en-ewt-parser")
    expected = [sentence.to_conllu() for sentence in nlp.parse("The cat sat. It was happy.").sentences]
    assert [block + "\n\n" for block in split_blocks[:2]] == [
        f"# sent_id = 1-{k}\n# line = 1\n" + block for k, block in enumerate(expected, start=1)
    ]
    sent_ids = [line for block in split_blocks for line in block.split("\n") if line.startswith("# sent_id = ")]
    assert len(sent_ids) == len(set(sent_ids)) == 5


def test_tag_gives_one_numbered_record_per_line(tmp_path: Path):
    from tests.export.tagger_models import tagger_folder

    folder = str(tagger_folder("origin"))
    source, out = _mixed(tmp_path), tmp_path / "out.jsonl"
    assert _run(["tag", folder, str(source), "--format", "json", "-o", str(out), "--fail-on-error"]) == 1
    records = _json_records(out)
    assert [record["line"] for record in records] == list(range(1, 10))
    # line 6 is over the tagger's max_sentence_length (1000) too: a line of 20,000 words took 2.7 GB
    errors = {r["line"]: r["error"] for r in records if "error" in r}
    assert sorted(errors) == [2, 3, 5, 6, 8] and "over max_sentence_length=1000" in errors[6]
    assert records[0]["sentence_starts"] == [0]
    conll = tmp_path / "out.conll"
    assert _run(["tag", folder, str(source), "--format", "conll", "-o", str(conll), "--split-sentences"]) == 0
    heads = [block.split("\n")[0] for block in _blocks(conll)]
    assert heads == ["# line = 1", "# line = 1"] + [f"# line = {n}" for n in range(2, 10)]


def test_classify_flags_or_refuses_a_text_without_a_known_ngram(tmp_path: Path, capsys):
    source, out = _mixed(tmp_path), tmp_path / "out.jsonl"
    assert _run(["classify", "en-sst2-sentiment", str(source), "-o", str(out)]) == 0
    records = _json_records(out)
    assert [record["line"] for record in records] == list(range(1, 10))
    assert sorted(r["line"] for r in records if "error" in r) == [2, 3, 5, 8]
    unknown = records[3]
    assert unknown["num_ngrams"] == 0 and unknown["no_known_features"] is True and "label" in unknown
    assert records[0]["no_known_features"] is False
    assert "; 1 line with no known n-gram" in capsys.readouterr().err
    strict = tmp_path / "strict.jsonl"
    assert _run(["classify", "en-sst2-sentiment", str(source), "-o", str(strict), "--no-known-features", "error"]) == 0
    refused = _json_records(strict)[3]
    assert refused["line"] == 4 and "no n-gram of this text is known" in refused["error"]


def test_the_python_classifier_flags_or_raises():
    from green_nlp.runtime.classifier import NoKnownFeatures

    nlp = load("en-sst2-sentiment")
    flagged = nlp.classify("???")
    assert flagged.no_known_features and flagged.to_json()["no_known_features"] is True
    assert not nlp.classify("a fine film").no_known_features
    with pytest.raises(NoKnownFeatures, match="^text has no n-gram the model knows"):
        nlp.classify("???", no_known_features="error")
    refused = list(nlp.classify_many(["a fine film", "???"], no_known_features="error"))[1]
    assert isinstance(refused.error, NoKnownFeatures) and str(refused.error).startswith("texts[1] has no n-gram")
    with pytest.raises(ValueError, match="no_known_features must be one of flag, error"):
        nlp.classify("a fine film", no_known_features="ignore")


def test_classify_split_sentences_averages_the_logits_of_a_lines_sentences(tmp_path: Path):
    import numpy as np

    nlp = load("en-sst2-sentiment")
    review = "A dull, lifeless plot. The acting is wooden. But the music is wonderful and I smiled throughout."
    parts = list(nlp.classify_many(["A dull, lifeless plot.", "The acting is wooden.", review.split(". ", 2)[2]]))
    source = tmp_path / "reviews.txt"
    source.write_text(f"{review}\nGreat.\n???\n", encoding="utf-8")
    whole, split = tmp_path / "whole.jsonl", tmp_path / "split.jsonl"
    assert _run(["classify", "en-sst2-sentiment", str(source), "-o", str(whole)]) == 0
    assert _run(["classify", "en-sst2-sentiment", str(source), "-o", str(split), "--split-sentences"]) == 0
    by_whole, by_split = _json_records(whole), _json_records(split)
    mean = np.mean([p.logits for p in parts], axis=0)
    assert by_split[0]["logits"] == pytest.approx(mean.tolist(), abs=1e-12)
    assert by_split[0]["probs"] == pytest.approx((np.exp(mean) / np.exp(mean).sum()).tolist(), abs=1e-12)
    assert by_split[0]["num_ngrams"] == sum(p.num_ngrams for p in parts)
    assert by_whole[0]["logits"] != by_split[0]["logits"]
    assert by_split[1:] == by_whole[1:]  # one sentence, or none known: the same record, bit for bit
    assert by_split[2]["no_known_features"] is True


def test_a_sentence_without_a_known_ngram_does_not_dilute_the_mean():
    from green_nlp.runtime.classifier import mean_of_sentences

    nlp = load("en-sst2-sentiment")
    good, unknown = nlp.classify("a wonderful, moving film"), nlp.classify("???")
    combined = mean_of_sentences([good, unknown], nlp.labels)
    assert combined.logits == good.logits and combined.label == good.label and combined.num_ngrams == good.num_ngrams
    nlp.split_sentences = True
    assert nlp.classify("a wonderful, moving film. ???").logits == good.logits
