"""The note `green-nlp parse` writes when most words of a run are unknown to the model (text in
another language), and its silence on text the model knows."""

import subprocess
import sys
from pathlib import Path

from green_nlp.runtime import load
from green_nlp.runtime.parser_inputs import Vocab
from green_nlp.runtime.unknown_words import (
    MIN_WORDS_FOR_NOTE,
    UNKNOWN,
    WORDS,
    UnknownWordTally,
    count_unknown,
    unknown_words_note,
)


def test_only_words_with_a_letter_count_and_the_vocabulary_case_is_followed():
    lowercased = Vocab({"vocabulary": ["@@PADDING@@", "@@UNKNOWN@@", "the", "cat"], "oov_index": 1, "lowercase": True})
    assert count_unknown(["The", "CAT", "sat", "42", ".", "--"], lowercased) == (3, 1)
    cased = Vocab({"vocabulary": ["@@PADDING@@", "@@UNKNOWN@@", "the", "cat"], "oov_index": 1})
    assert count_unknown(["The", "cat"], cased) == (2, 1)


def test_the_note_needs_a_majority_share_and_enough_words():
    assert unknown_words_note({WORDS: 100, UNKNOWN: 40}, "en") is None
    assert unknown_words_note({WORDS: MIN_WORDS_FOR_NOTE - 1, UNKNOWN: MIN_WORDS_FOR_NOTE - 1}, "en") is None
    note = unknown_words_note({WORDS: 1000, UNKNOWN: 770}, "en")
    assert note is not None and note.startswith("77% of the words read (770 of 1,000) are unknown")
    assert "whose folder tokenizes 'en' text" in note and "green-export --language" in note


def test_a_parse_counts_every_sentence_of_a_line(parser_folders):
    nlp = load(parser_folders["quickstart"], threads=1)
    known = [word for word in nlp.inputs.words.index if word.isalpha()][:3]
    doc = nlp.parse(" ".join(known) + ". Qxzvv wjkq " + known[0] + ".")
    assert len(doc.sentences) == 2
    assert UnknownWordTally(nlp.inputs.words)(doc) == {WORDS: 6, UNKNOWN: 2}


def _parse(folder: Path, lines: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    source = tmp_path / "in.txt"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", "parse", str(folder), str(source), "-o", str(tmp_path / "out.conllu")],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_cli_notes_a_run_of_mostly_unknown_words_and_not_one_of_known_words(parser_folders, tmp_path):
    folder = parser_folders["quickstart"]
    known = sorted(word for word in load(folder, threads=1).inputs.words.index if word.isalpha())
    assert len(known) >= 10
    lines = [" ".join(known[(10 * i + j) % len(known)] for j in range(10)) + " ." for i in range(6)]
    familiar = _parse(folder, lines, tmp_path)  # 60 words: enough for a note, were they unknown
    assert familiar.returncode == 0, familiar.stderr
    assert "unknown to this model" not in familiar.stderr
    foreign = [" ".join(f"qz{chr(97 + i)}{chr(97 + j)}x" for j in range(10)) + " ." for i in range(6)]
    noted = _parse(folder, foreign, tmp_path)
    assert noted.returncode == 0, noted.stderr
    assert "green-nlp parse: 100% of the words read (60 of 60) are unknown to this model" in noted.stderr


def test_a_tagging_counts_all_its_words():
    from tests.export.tagger_models import fixture_sentences, tagger_folder

    nlp = load(tagger_folder("origin"), threads=1)
    tagged = nlp.tag(" ".join(fixture_sentences()[0]) + " Qxzvv wjkq .")
    assert tagged.words[-3:] == ["Qxzvv", "wjkq", "."]
    counted, unknown = count_unknown(tagged.words, nlp.inputs.words)
    assert counted > 2 and unknown >= 2  # a tagging keeps its words in one list, not in sentences
    assert UnknownWordTally(nlp.inputs.words)(tagged) == {WORDS: counted, UNKNOWN: unknown}
