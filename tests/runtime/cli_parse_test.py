"""`green-nlp parse`: streams a file through an exported parser, reports bad lines, keeps order."""

import json
import subprocess
import sys
from pathlib import Path

from green_nlp.runtime import load


def _run(args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600
    )


def test_parse_reports_bad_lines_and_keeps_the_rest_in_order(parser_folders, tmp_path: Path):
    folder = parser_folders["quickstart"]
    good = ["The cat sat on the mat.", "Dogs bark.", "A bird sang in the tree.", "It rained."]
    lines = [
        good[0].encode(),
        b"",
        good[1].encode(),
        b"caf\xe9 au lait",
        b'{"text": "unclosed',
        json.dumps({"text": good[2]}).encode(),
        b"a\x00b",
        good[3].encode(),
    ]
    source = tmp_path / "in.txt"
    source.write_bytes(b"\n".join(lines) + b"\n")
    result = _run(
        ["parse", str(folder), str(source), "-o", "out.conllu", "--errors-file", "errors.jsonl", "--batch-size", "2"],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    # one record per line (docs/runtime.md): good lines' blocks and error blocks, each opened by its number
    docs = iter(load(folder, precision="fp32").parse_many(good, batch_size=4))
    why = {2: "blank line (no text)", 4: "not valid UTF-8 (byte 0xe9 at column 4)"}
    why[5] = "cannot read the line: broken JSON object: Unterminated string starting at (column 10); a line "
    why[5] += "starting with '{' is read as JSON (give text that starts with a brace as {\"text\": ...})"
    why[7] = "holds a NUL byte at column 2 (binary data?)"
    expected = "".join(
        f"# sent_id = {n}\n# line = {n}\n" + next(docs).to_conllu().rstrip("\n") + "\n\n"
        if n in (1, 3, 6, 8)
        else f"# line = {n}\n# error = {why[n]}\n\n"
        for n in range(1, 9)
    )
    assert (tmp_path / "out.conllu").read_text(encoding="utf-8") == expected
    errors = [json.loads(line) for line in (tmp_path / "errors.jsonl").read_text().splitlines()]
    assert [error["line"] for error in errors] == [4, 5, 7]
    assert "4 lines predicted, 3 skipped, 1 blank" in result.stderr
    assert f"{source}:4: not valid UTF-8" in result.stderr
    # a window of 3 lines holds a bad one: the good lines of that window are still parsed, in order
    windowed = _run(["parse", str(folder), str(source), "-o", "w.conllu", "--sort-window", "3"], cwd=tmp_path)
    assert windowed.returncode == 0, windowed.stderr
    assert (tmp_path / "w.conllu").read_text(encoding="utf-8") == expected


def test_settings_that_cannot_batch_are_usage_errors(parser_folders, tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n")
    for option in ("--sort-window", "--batch-size"):
        result = _run(["parse", str(parser_folders["quickstart"]), str(source), option, "0"], cwd=tmp_path)
        assert result.returncode == 2 and f"{option} must be positive" in result.stderr
        assert "Traceback" not in result.stderr


def test_parse_json_output_and_a_clear_error_for_a_missing_model(parser_folders, tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n")
    result = _run(["parse", str(parser_folders["quickstart"]), str(source), "--format", "json"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert [word for sentence in record["sentences"] for word in sentence["words"]] == ["The", "cat", "sat", "."]
    missing = _run(["parse", "no-such-model", str(source)], cwd=tmp_path)
    assert missing.returncode == 2 and "no-such-model" in missing.stderr and "Traceback" not in missing.stderr


def test_classify_refuses_a_parser(parser_folders, tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n")
    result = _run(["classify", str(parser_folders["quickstart"]), str(source)], cwd=tmp_path)
    assert result.returncode != 0 and "does not classify" in result.stderr


def test_a_gold_upos_parser_stops_on_raw_text_and_reads_words_with_tags(parser_folders, tmp_path: Path):
    folder = parser_folders["teacher"]
    text = tmp_path / "text.txt"
    text.write_text("the cat sees a dog .\nthe dog .\n")
    stopped = _run(["parse", str(folder), str(text)], cwd=tmp_path)
    assert stopped.returncode == 2 and "gold UPOS" in stopped.stderr and "Traceback" not in stopped.stderr
    sentences = [
        (["the", "cat", "sees", "a", "dog", "."], ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"]),
        (["the", "dog", "."], ["DET", "NOUN", "PUNCT"]),
    ]
    tagged = tmp_path / "tagged.jsonl"
    tagged.write_text("".join(json.dumps({"words": w, "upos": u}) + "\n" for w, u in sentences))
    result = _run(["parse", str(folder), str(tagged), "--format", "json"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    nlp = load(folder, precision="fp32")
    expected = [{"line": n, **nlp.parse_tokens(w, u).to_json()} for n, (w, u) in enumerate(sentences, start=1)]
    assert [json.loads(line) for line in result.stdout.splitlines()] == expected


def test_raw_text_and_words_mix_in_one_file_in_input_order(parser_folders, tmp_path: Path):
    folder = parser_folders["quickstart"]
    source = tmp_path / "in.txt"
    words = ["Dogs", "bark", "loudly", "."]
    source.write_text("The cat sat.\n" + json.dumps({"words": words}) + "\n" + json.dumps({"words": [], "x": 1}) + "\n")
    result = _run(["parse", str(folder), str(source), "--format", "json"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [s["words"] for r in records[:2] for s in r["sentences"]] == [["The", "cat", "sat", "."], words]
    assert records[2] == {"line": 3, "error": "cannot read the line: field 'words' is empty"}
    assert f"{source}:3: cannot read the line: field 'words' is empty" in result.stderr


def test_paths_are_checked_before_the_model_loads_and_stdin_is_read(parser_folders, tmp_path: Path):
    folder = str(parser_folders["quickstart"])
    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n")
    for args, why in (
        ([folder, str(tmp_path)], "is a folder"),
        ([folder, str(tmp_path / "missing.txt")], "input file not found"),
        ([folder, str(source), "-o", str(tmp_path / "no" / "out.conllu")], "does not exist"),
        ([folder, "-", "--shard", "0/2"], "cannot be sharded"),
    ):
        result = _run(["parse", *args], cwd=tmp_path)
        assert result.returncode == 2 and why in result.stderr and "Traceback" not in result.stderr, result.stderr
    piped = subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", "parse", folder, "-", "--format", "json"],
        input="The cat sat.\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["sentences"][0]["words"] == ["The", "cat", "sat", "."]
    assert json.loads(piped.stdout)["line"] == 1


def test_a_conllu_file_is_refused_whole_and_a_stray_row_line_by_line(parser_folders, tmp_path: Path):
    folder = str(parser_folders["quickstart"])
    source = tmp_path / "in.conllu"
    source.write_text("# sent_id = 1\n# text = Dogs bark.\n1\tDogs\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\nDogs bark.\n")
    refused = _run(["parse", folder, str(source), "--format", "json"], cwd=tmp_path)
    assert refused.returncode == 2 and "looks like CoNLL-U" in refused.stderr and str(source) in refused.stderr
    assert refused.stdout == "" and "Traceback" not in refused.stderr
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("Dogs bark.\n1\tDogs\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\nCats sleep.\n")
    result = _run(["parse", folder, str(mixed), "--format", "json"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "2 lines predicted, 1 skipped" in result.stderr and "looks like CoNLL-U" in result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["line"] for record in records] == [1, 2, 3]
    assert "looks like CoNLL-U" in records[1]["error"]
    assert [s["words"] for s in records[2]["sentences"]] == [["Cats", "sleep", "."]]


def test_upos_given_to_a_words_only_parser_is_said_to_be_unused_once(tmp_path: Path):
    lines = [
        {"words": ["The", "cat", "sat"], "upos": ["VERB", "VERB", "VERB"]},
        {"words": ["A", "dog"], "upos": ["DET", "NOUN"]},
        {"words": ["A", "dog"]},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    told = _run(["parse", "en-ewt-parser", str(source), "-o", "out.conllu", "--batch-size", "1"], cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    assert told.stderr.count('the "upos" of the input lines are not used') == 1
    rows = [line.split("\t") for line in (tmp_path / "out.conllu").read_text().splitlines() if line[:1].isdigit()]
    assert [row[3] for row in rows[:3]] != ["VERB"] * 3  # the model's own tags
    source.write_text(json.dumps(lines[2]) + "\n")
    quiet = _run(["parse", "en-ewt-parser", str(source), "-o", "out.conllu"], cwd=tmp_path)
    assert quiet.returncode == 0 and "not used" not in quiet.stderr


def test_max_sentence_length_can_be_raised_within_bounds(tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text(" ".join(f"w{i}" for i in range(1100)) + "\nA short one.\n")
    default = _run(["parse", "en-ewt-parser", str(source), "-o", "a.conllu"], cwd=tmp_path)
    assert default.returncode == 0 and "1 line predicted, 1 skipped" in default.stderr
    # the error says how to split it and raise the limit, in the command's own options
    assert "split a line of several sentences (--split-sentences), cut the sentence" in default.stderr
    assert "raise the limit (--max-sentence-length)" in default.stderr
    assert "nlp.max_sentence_length" not in default.stderr
    split = _run(["parse", "en-ewt-parser", str(source), "-o", "s.conllu", "--split-sentences"], cwd=tmp_path)
    assert "(--split-sentences)" not in split.stderr and "cut the sentence into shorter ones" in split.stderr
    raised = _run(
        ["parse", "en-ewt-parser", str(source), "-o", "b.conllu", "--max-sentence-length", "1200"], cwd=tmp_path
    )
    assert raised.returncode == 0 and "2 lines predicted, 0 skipped" in raised.stderr
    for bad in ("0", "5000", "x"):
        refused = _run(["parse", "en-ewt-parser", str(source), "--max-sentence-length", bad], cwd=tmp_path)
        assert refused.returncode == 2 and "argument --max-sentence-length: must be" in refused.stderr
        # one line naming the help, as `--batch-size 0` is refused; argparse printed the whole usage first
        assert refused.stderr.count("\n") == 1 and refused.stderr.endswith("(see green-nlp parse --help)\n")


def test_option_errors_are_one_line_and_the_usage_lists_serve(tmp_path: Path):
    unknown = _run(["models", "extra"], cwd=tmp_path)
    assert unknown.returncode == 2
    assert unknown.stderr == "green-nlp: unrecognized arguments: extra (see green-nlp --help)\n"
    missing = _run(["parse"], cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr.startswith("green-nlp parse: the following arguments")
    from green_nlp.cli import _runtime_parser

    assert "{parse,tag,classify,models,configs,serve}" in _runtime_parser().format_usage()


def test_lines_holding_several_sentences_are_counted_unless_split(parser_folders, tmp_path: Path):
    """A paragraph read as one sentence loses about 13 LAS points (benchmarks/results/
    parser_raw_paragraphs.md): the summary says how many lines that was, and the record is unchanged."""
    folder = parser_folders["quickstart"]
    source = tmp_path / "in.txt"
    source.write_text("The cat sat. The dog ran.\nMr. Smith went home.\nBirds sing. Fish swim! Frogs jump?\n")
    one_each = _run(["parse", str(folder), str(source), "-o", "one.conllu"], cwd=tmp_path)
    assert one_each.returncode == 0, one_each.stderr
    assert "0 blank; 2 lines read as one sentence where the sentence splitter finds several (--split-sentences" in (
        one_each.stderr
    )
    assert (tmp_path / "one.conllu").read_text(encoding="utf-8").count("# text = ") == 3
    split = _run(["parse", str(folder), str(source), "-o", "split.conllu", "--split-sentences"], cwd=tmp_path)
    assert split.returncode == 0, split.stderr
    assert "3 lines predicted, 0 skipped, 0 blank\n" in split.stderr  # nothing to count: each sentence parsed alone
    assert (tmp_path / "split.conllu").read_text(encoding="utf-8").count("# text = ") == 6


def test_an_output_named_gz_is_written_compressed(parser_folders, tmp_path: Path):
    """Inputs named .gz are read decompressed; `-o out.conllu.gz` had written plain text under that name."""
    import gzip

    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n", encoding="utf-8")
    result = _run(["parse", str(parser_folders["quickstart"]), str(source), "-o", "out.conllu.gz"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    with gzip.open(tmp_path / "out.conllu.gz", "rt", encoding="utf-8") as handle:
        assert "# text = The cat sat." in handle.read()
