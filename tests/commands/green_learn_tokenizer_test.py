import json
import shutil
import subprocess
import sys

import pytest
from allennlp.common.checks import ConfigurationError
from allennlp.predictors import Predictor

from green_nlp.commands.green_learn_tokenizer import add_to_folder, check_output, learn_tokenizer, left_out_note
from green_nlp.runtime import load
from green_nlp.runtime.treebank_tokenization import FILE
from tests.conftest import FIXTURES

TREEBANK = FIXTURES / "ud" / "synthetic-tokenization.conllu"


def test_the_command_writes_rules_into_a_folder_that_the_runtime_then_follows(parser_folders, tmp_path):
    folder = tmp_path / "parser"
    shutil.copytree(parser_folders["quickstart"], folder)
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", "green-learn-tokenizer", str(TREEBANK), "--dev", str(TREEBANK)]
        + ["--folder", str(folder), "--output", str(tmp_path / "rules.json"), "--include-package", "green_nlp"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout[result.stdout.index("{") :])
    assert figures["train_sentences"] == 17 and figures["dev"]["words_f1_rules"] == 100.0
    assert "train_sentences_left_out" not in figures and "sentences" not in figures["dev"]  # none left out
    assert "learnt from 17 of 17 train sentences; dev words F1 on every dev sentence" in result.stderr
    assert figures["dev"]["words_f1_spacy"] < figures["dev"]["words_f1_rules"]
    assert (folder / FILE).read_text() == (tmp_path / "rules.json").read_text()
    meta = json.loads((folder / "green_model.json").read_text())
    assert meta["tokenizer"]["rules"]["file"] == FILE and FILE in meta["sha256"]
    words = load(folder, threads=1, precision="fp32").parse("Thanks alot for the e-mail !!").sentences[0].words
    assert words == ["Thanks", "a", "lot", "for", "the", "e-mail", "!!"]


def _learn(folder, *options):
    return subprocess.run(
        [sys.executable, "-m", "allennlp", "green-learn-tokenizer", str(TREEBANK), "--folder", str(folder), *options]
        + ["--include-package", "green_nlp"],
        capture_output=True,
        text=True,
    )


def test_a_folders_rules_are_replaced_only_with_replace_and_the_run_says_what_it_replaced(parser_folders, tmp_path):
    """A folder's rules (a shipped one's learnt from a whole treebank) were replaced without a word."""
    folder = tmp_path / "parser"
    shutil.copytree(parser_folders["quickstart"], folder)
    first = _learn(folder)
    assert first.returncode == 0, first.stderr[-2000:]
    assert f"rules learnt from {TREEBANK}, written to {folder / FILE}" in first.stderr
    assert "replacing" not in first.stderr
    rules = (folder / FILE).read_text()
    meta = (folder / "green_model.json").read_text()

    again = _learn(folder, "--min-count", "50")  # fewer rules: would silently undo the first ones
    assert again.returncode != 0 and "Traceback" not in again.stderr
    assert f"{folder} already has tokenizer rules (" in again.stderr and "pass --replace" in again.stderr
    assert f"learnt from {TREEBANK.name})" in again.stderr
    assert (folder / FILE).read_text() == rules and (folder / "green_model.json").read_text() == meta

    replaced = _learn(folder, "--min-count", "50", "--replace")
    assert replaced.returncode == 0, replaced.stderr[-2000:]
    assert f"(replacing {json.loads(rules)['figures']['rules']} rules learnt from {TREEBANK.name})" in replaced.stderr
    assert json.loads((folder / FILE).read_text())["figures"]["min_count"] == 50


def test_rules_learnt_on_another_languages_tokens_are_refused_for_a_folder(parser_folders, tmp_path):
    """`--language ta` learnt rules on spaCy's Tamil tokens and put them in a folder that tokenizes English."""
    folder = tmp_path / "parser"
    shutil.copytree(parser_folders["quickstart"], folder)
    refused = _learn(folder, "--language", "ta")
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert f"{folder} tokenizes 'en' text, and these rules would be learnt on spaCy's 'ta' tokens" in refused.stderr
    assert "green-export --language ta" in refused.stderr and not (folder / FILE).exists()


def test_the_predictor_tokenizes_with_the_same_rules(quickstart_archive, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps(learn_tokenizer(TREEBANK, None, "en", {})), encoding="utf-8")
    predictor = Predictor.from_path(str(quickstart_archive), "green_dependency_parser", tokenizer_rules=str(rules))
    result = predictor.predict_json({"sentence": "Call 713-853-1696 now !!"})
    assert result["sentences"][0]["words"] == ["Call", "713-853-1696", "now", "!!"]
    line = "I don't call 713-853-1696 !!"
    record = predictor.predict_json({"sentence": line})["sentences"][0]
    assert record["multiword_tokens"] == [["2-3", "don't"] + ["_"] * 8]
    assert "\n2-3\tdon't\t" in predictor.dump_line(predictor.predict_json({"sentence": line}))
    # the runtime, with the same rules in an exported folder, writes the same record
    folder = tmp_path / "parser"
    from green_nlp.commands.green_learn_tokenizer import add_to_folder
    from green_nlp.export import export_archive

    export_archive(quickstart_archive, folder)
    add_to_folder(folder, json.loads(rules.read_text()))
    assert load(folder, threads=1, precision="fp32").parse(line).sentences[0].to_json() == record


def test_a_folder_that_reads_no_words_and_empty_training_files_are_refused(tmp_path):
    (tmp_path / "green_model.json").write_text('{"family": "classifier"}', encoding="utf-8")
    with pytest.raises(ConfigurationError, match="reads no words"):
        add_to_folder(tmp_path, {"source": "x", "figures": {}})
    with pytest.raises(ConfigurationError, match="no green_model.json"):
        add_to_folder(tmp_path / "missing", {"source": "x", "figures": {}})
    empty = tmp_path / "empty.conllu"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="empty.conllu:1: file contains no sentences"):
        learn_tokenizer(empty, None, "en", {})
    untexted = tmp_path / "no_text.conllu"
    untexted.write_text("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="no sentence with a '# text' comment"):
        learn_tokenizer(untexted, None, "en", {})


@pytest.mark.parametrize(
    "content, message",
    [
        (b"# text = a b\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\n\n", "bad.conllu:3: expected 10 tab-separated columns"),
        (b"\xff\xfe not text", "bad.conllu:1: not valid UTF-8"),
    ],
)
def test_a_malformed_training_file_is_named_with_its_line_and_no_traceback(tmp_path, content, message):
    bad = tmp_path / "bad.conllu"
    bad.write_bytes(content)
    command = [
        sys.executable,
        "-m",
        "allennlp",
        "green-learn-tokenizer",
        str(bad),
        "--output",
        str(tmp_path / "r.json"),
    ]
    result = subprocess.run(command + ["--include-package", "green_nlp"], capture_output=True, text=True)
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "r.json").exists()


def test_a_language_spacy_lacks_is_refused_in_one_line_before_learning(tmp_path):
    command = [
        sys.executable,
        "-m",
        "allennlp",
        "green-learn-tokenizer",
        str(TREEBANK),
        "--output",
        str(tmp_path / "r.json"),
    ]
    result = subprocess.run(
        command + ["--language", "xx-nope", "--include-package", "green_nlp"], capture_output=True, text=True
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "--language 'xx-nope': spaCy has no tokenizer rules for it" in result.stderr
    assert not (tmp_path / "r.json").exists()


def test_a_treebank_without_text_is_learnt_with_text_from_words_and_its_figures_say_so():
    untexted = FIXTURES / "ud" / "synthetic-unspaced.conllu"  # Chinese, no `# text`, no SpaceAfter marks
    with pytest.raises(ConfigurationError, match="give --text-from-words spaced or unspaced"):
        learn_tokenizer(untexted, None, "zh", {})
    figures = learn_tokenizer(untexted, untexted, "zh", {"min_count": 1}, text_from_words="unspaced")["figures"]
    assert figures["text_from_words"] == "unspaced" and figures["train_sentences"] == 7
    assert figures["dev"]["words_f1_spacy"] < 60.0 and figures["dev"]["words_f1_rules"] == 100.0
    assert "a sentence without '# text' has its words' text, rebuilt unspaced;" in left_out_note(figures)


def test_the_training_file_as_output_is_refused_and_left_whole(tmp_path):
    """The rules' JSON was written over the treebank they were learnt from."""
    train = tmp_path / "train.conllu"
    shutil.copy(FIXTURES / "ud" / "synthetic-tokenization.conllu", train)
    before = train.read_bytes()
    command = [sys.executable, "-m", "allennlp", "green-learn-tokenizer", str(train), "--output", str(train)]
    result = subprocess.run(command + ["--include-package", "green_nlp"], capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"--output {train} is the treebank file {train}: writing the rules there would overwrite it" in result.stderr
    assert train.read_bytes() == before


def test_a_folder_as_output_is_refused(tmp_path):
    with pytest.raises(ConfigurationError, match="is a folder: give the rules' file name"):
        check_output(str(tmp_path), [str(FIXTURES / "ud" / "synthetic-tokenization.conllu"), None])
