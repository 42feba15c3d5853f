"""The shipped models: within budget, no pickle, a card with license and figures, and they parse.

Runs in the training environment and, in CI, in a fresh virtual environment that has only
`pip install .` (no torch, no allennlp): it imports nothing but the runtime.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import green_nlp
from green_nlp.runtime import available_models

_PACKAGE = Path(green_nlp.__file__).resolve().parent
# installed: green_nlp/pretrained; in a clone: the top-level pretrained/
PRETRAINED = next(
    (path for path in (_PACKAGE / "pretrained", _PACKAGE.parent / "pretrained") if path.is_dir()),
    _PACKAGE / "pretrained",
)
SHIPPED = sorted(folder.name for folder in PRETRAINED.iterdir() if folder.is_dir()) if PRETRAINED.is_dir() else []


def test_the_english_parser_ships():
    assert "en-ewt-parser" in SHIPPED
    assert available_models()["en-ewt-parser"].startswith("parser")


def assert_plain_npz(path):
    """numpy's zip of plain arrays: every member an .npy that loads without pickle."""
    import zipfile

    import numpy as np

    with zipfile.ZipFile(path) as archive:
        assert all(name.endswith(".npy") for name in archive.namelist()), archive.namelist()
    with np.load(path, allow_pickle=False) as arrays:
        assert all(arrays[name].dtype != object for name in arrays.files)


@pytest.mark.parametrize("name", SHIPPED)
def test_each_folder_is_within_budget_and_holds_no_pickle(name):
    folder = PRETRAINED / name
    files = [path for path in folder.iterdir() if path.is_file()]
    assert sum(path.stat().st_size for path in files) <= 12 * 1000 * 1000
    assert {path.suffix for path in files} <= {".onnx", ".json", ".md", ".txt", ".npz"}
    for path in files:
        if path.suffix == ".npz":  # numpy's zip of plain arrays: every member loads without pickle
            assert_plain_npz(path)
            continue
        head = path.read_bytes()[:2]
        assert head != b"\x80\x04" and head != b"PK", f"{path.name} looks like a pickle or a torch zip"


@pytest.mark.parametrize("name", SHIPPED)
def test_each_card_states_license_and_measured_figures(name):
    meta = json.loads((PRETRAINED / name / "green_model.json").read_text(encoding="utf-8"))
    card = meta["card"]
    assert card["license"] and card["data"]
    assert any(key.startswith("LAS") or "accuracy" in key.lower() for key in card["metrics"])
    assert (PRETRAINED / name / "README.md").read_text(encoding="utf-8").startswith(f"# {name}")


@pytest.mark.parametrize("name", SHIPPED)
def test_each_card_gives_the_folder_size_it_has(name):
    """Steps after a build (graph splits, an n-gram index) changed the files but not the card's row,
    which `green-nlp serve` lists; `python scripts/card_folder_size.py` writes it again."""
    folder = PRETRAINED / name
    size = sum(path.stat().st_size for path in folder.iterdir() if path.is_file())
    card = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))["card"]
    assert card["metrics"]["folder size"] == f"{size / 1e6:.1f} MB"


def test_the_parser_cards_lemma_examples_are_what_it_gives():
    """The card's Limits show lemmas of words EWT train lacks; a rebuilt model must not leave them stale."""
    import re

    card = (PRETRAINED / "en-ewt-parser" / "README.md").read_text(encoding="utf-8")
    examples = dict(re.findall(r"`(\w+)` -> `(\w+)`", card[card.index("- Lemmas of words EWT train lacks") :]))
    assert len(examples) == 4
    model = green_nlp.load("en-ewt-parser")
    sentences = [
        "It rained.",
        "The leaves fell as the mice ran past the geese.",
        "They were hoping, coping and taping boxes.",
    ]
    given = {w: lemma for text in sentences for s in model.parse(text) for w, lemma in zip(s.words, s.lemmas)}
    assert {form: given[form] for form in examples} == examples


def test_the_parsers_lemma_dictionary_gives_names_their_own_lemma():
    """EWT writes some e-mail addresses apart (`Daniel R Castagnola@ENRON`, relation goeswith), each part
    with the whole address as its lemma; a dictionary built with those parts gave every `Daniel` the
    address as its lemma."""
    doc = green_nlp.load("en-ewt-parser").parse("Daniel and Amanda met Stanley.")
    assert dict(zip(doc.sentences[0].words, doc.sentences[0].lemmas)) == {
        "Daniel": "Daniel",
        "and": "and",
        "Amanda": "Amanda",
        "met": "meet",
        "Stanley": "Stanley",
        ".": ".",
    }


def test_the_parsers_lemmas_keep_a_lower_case_words_case_and_an_emoji_as_it_is():
    doc = green_nlp.load("en-ewt-parser").parse("Café — naïve 😀 résumé. We had a separator 🎉 here.")
    lemmas = {w: lemma for s in doc.sentences for w, lemma in zip(s.words, s.lemmas)}
    assert lemmas["naïve"] == "naïve" and lemmas["separator"] == "separator"
    assert lemmas["😀"] == "😀" and lemmas["🎉"] == "🎉"


def test_the_parsers_lemma_dictionary_is_what_ewt_train_gives_today():
    """The shipped dictionary is the one `python -m green_nlp.export.lemma_lexicon` builds from EWT train
    now: a fix to the builder must reach the shipped folder too."""
    from green_nlp.runtime.lemma_lexicon import FILE, LemmaLexicon
    from green_nlp.settings import DATA_ENV_VAR, data_dir

    train = data_dir() / "ud" / "UD_English-EWT" / "en_ewt-ud-train.conllu"
    if not train.is_file():
        pytest.skip(f"real data not found at {train}; set {DATA_ENV_VAR} to the shared data folder")
    shipped = json.loads((PRETRAINED / "en-ewt-parser" / FILE).read_text(encoding="utf-8"))["entries"]
    assert shipped == LemmaLexicon.from_conllu(train).to_lines()


def test_the_parser_parses_raw_text_in_one_line():
    doc = green_nlp.load("en-ewt-parser").parse("The cat sat on the mat. It was happy.")
    assert len(doc.sentences) == 2
    first = doc.sentences[0]
    assert first.words == ["The", "cat", "sat", "on", "the", "mat", "."]
    assert sorted(first.heads).count(0) == 1 and first.heads[first.words.index("sat")] == 0
    assert first.upos[first.words.index("cat")] == "NOUN"
    assert "\t" in doc.to_conllu()


def test_the_parser_tokenizes_raw_text_as_ewt_does_with_multiword_tokens():
    meta = json.loads((PRETRAINED / "en-ewt-parser" / "green_model.json").read_text(encoding="utf-8"))
    assert meta["tokenizer"]["rules"]["file"] == "tokenizer_rules.json"
    assert meta["tokenizer"]["rules"]["dev"]["words_f1_rules"] > meta["tokenizer"]["rules"]["dev"]["words_f1_spacy"]
    sentence = green_nlp.load("en-ewt-parser").parse("I don't have your e-mail !!").sentences[0]
    assert sentence.words == ["I", "do", "n't", "have", "your", "e-mail", "!!"]  # spaCy alone: e - mail ! !
    assert sentence.multiword_tokens == [["2-3", "don't"] + ["_"] * 8]
    assert "\n2-3\tdon't\t_\t" in sentence.to_conllu()


@pytest.mark.parametrize(
    "text",
    [
        "I don't have your e-mail!! (See www.example.com/a?b=1.)",
        "She said: \"we'd known\"... didn't we?",
        "Great film.<br /><br />I loved it, really!",
    ],
)
def test_the_parsers_conllu_spells_each_sentences_text_again(text):
    """SpaceAfter=No marks, with the multiword tokens' forms, rebuild `# text` (UD's convention)."""
    import conllu

    for sentence in conllu.parse(green_nlp.load("en-ewt-parser").parse(text).to_conllu()):
        inside = {i for t in sentence if type(t["id"]) is tuple for i in range(t["id"][0], t["id"][2] + 1)}
        shown = [t for t in sentence if type(t["id"]) is tuple or t["id"] not in inside]
        spaced = [t["form"] + ("" if (t["misc"] or {}).get("SpaceAfter") == "No" else " ") for t in shown]
        assert "".join(spaced).strip() == sentence.metadata["text"]
        assert "<br" not in sentence.metadata["text"]


def test_the_console_script_parses_a_file(tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text("The cat sat on the mat.\nDogs bark.\n", encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "green_nlp.cli",
            "parse",
            "en-ewt-parser",
            str(source),
            "-o",
            str(tmp_path / "out.conllu"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    blocks = [block for block in (tmp_path / "out.conllu").read_text().split("\n\n") if block.strip()]
    assert len(blocks) == 2


def test_all_shipped_models_together_stay_within_40_mb():
    total = sum(path.stat().st_size for name in SHIPPED for path in (PRETRAINED / name).iterdir() if path.is_file())
    assert total <= 40 * 1000 * 1000


def test_the_sentiment_classifier_ships_and_classifies():
    assert available_models()["en-sst2-sentiment"].startswith("classifier")
    nlp = green_nlp.load("en-sst2-sentiment")
    texts = ["A gorgeous, witty, seductive movie.", "Dull, lifeless and far too long; a waste of time."]
    results = list(nlp.classify_many(texts, batch_size=2))
    assert [result.label for result in results] == ["positive", "negative"]
    for result in results:
        assert set(result.probabilities) == {"negative", "positive"}
        assert abs(sum(result.probabilities.values()) - 1.0) < 1e-5
    assert nlp.classify(texts[0]).to_json()["label"] == "positive"


def test_the_console_script_classifies_a_file(tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text("An utterly delightful film.\n\nA tedious, boring mess.\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", "classify", "en-sst2-sentiment", str(source), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    labels = [record.get("label") for record in records if "label" in record]
    assert labels == ["positive", "negative"]


def test_one_onnxruntime_thread_is_the_default_and_none_leaves_it_to_onnxruntime():
    """benchmarks/results/thread_cost.md: a second thread costs the shipped models' whole runs more CPU
    time than the wall time it saves, so the library and the command line default to one."""
    from green_nlp.runtime import DEFAULT_THREADS, load

    assert DEFAULT_THREADS == 1

    def intra_op(nlp) -> int:
        return nlp.session.get_session_options().intra_op_num_threads

    assert intra_op(load("en-sst2-sentiment")) == 1
    assert intra_op(load("en-sst2-sentiment", threads=2)) == 2
    assert intra_op(load("en-sst2-sentiment", threads=None)) == 0  # onnxruntime's own default: every core
    with pytest.raises(ValueError, match="threads must be positive"):
        load("en-sst2-sentiment", threads=0)
    cpus = os.cpu_count() or 1
    too_many = 4 * cpus + 1  # thousands of threads took minutes to start
    advice = rf"give at most {4 * cpus}, and no more than {cpus} to gain speed$"
    with pytest.raises(ValueError, match=rf"^threads={too_many} is more than 4 per CPU .*; {advice}"):
        load("en-sst2-sentiment", threads=too_many)


def test_the_command_line_loads_with_one_thread_unless_told(tmp_path: Path, monkeypatch):
    import green_nlp.runtime
    from green_nlp.cli import run_runtime

    real_load, asked = green_nlp.runtime.load, []

    def recording_load(*args, **kwargs):
        asked.append(kwargs.get("threads"))
        return real_load(*args, **kwargs)

    monkeypatch.setattr(green_nlp.runtime, "load", recording_load)
    texts = tmp_path / "texts.txt"
    texts.write_text("a gentle, funny film\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert run_runtime(["classify", "en-sst2-sentiment", str(texts), "-o", str(out), "--no-progress"]) == 0
    assert run_runtime(["classify", "en-sst2-sentiment", str(texts), "-o", str(out), "--threads", "2"]) == 0
    assert asked == [1, 2]
    assert run_runtime(["classify", "en-sst2-sentiment", str(texts), "--threads", "0"]) == 2  # refused, not 1


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the memory peak from /proc (Linux)")
def test_a_huge_word_keeps_the_parsers_memory_bounded_and_the_other_lines_unchanged():
    """One 50,000-character word once padded every distinct word of its batch to that width: GBs."""
    script = """
import green_nlp
nlp = green_nlp.load("en-ewt-parser")
lines = [f"Sentence number {i} is ordinary, with {i} cats." for i in range(40)]
alone = [doc.to_conllu() for doc in nlp.parse_many(lines)]
mixed = lines[:20] + ["Look at " + "x" * 50_000 + " now."] + lines[20:]
docs = [doc.to_conllu() for doc in nlp.parse_many(mixed)]
assert docs[:20] + docs[21:] == alone, "the other lines changed"
# the peak of this program's own memory (ru_maxrss would count the forking test process's too)
print(next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM")) // 1024)
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert int(run.stdout.split()[-1]) < 1500  # MB at peak (it reached 5 GB before the cap)
