"""The runtime's Python API refuses what the CLI's lines refuse (issue 44): every single call raises
`InputError` naming the input and what is wrong, and every *_many call yields an `InputFailure` in
place of a bad input, naming its index, while the inputs around it get their own answers."""

import json

import pytest

from green_nlp.line_stream import json_object
from green_nlp.runtime import load
from green_nlp.runtime.errors import InputError, InputFailure, InputTypeError
from green_nlp.runtime.input_checks import check_tokens
from tests.export.tagger_models import tagger_folder


@pytest.fixture(scope="module")
def parser():
    return load("en-ewt-parser", threads=1)


@pytest.fixture(scope="module")
def classifier():
    return load("en-sst2-sentiment", threads=1)


@pytest.mark.parametrize(
    "words, upos, error, message",
    [
        (["a", ""], None, InputError, "words[1] is empty or only whitespace"),
        (["a", "b\tc"], None, InputError, "words[1] holds a tab"),
        (["a\nb"], None, InputError, "words[0] holds a line break"),
        (["a", "b\x00"], None, InputError, "words[1] holds a NUL character"),
        (["a", "b\ud800"], None, InputError, "words[1] holds a lone surrogate"),
        ("The cat", None, InputTypeError, "words must be a list of strings, got a string"),
        (["a", 3], None, InputTypeError, "words[1] is a number, not a string"),
        ([], None, InputError, "words is empty"),
        (["The", "cat"], ["DET"], InputError, "upos has 1 tags for 2 words"),
        (["The", "cat"], "DET NOUN", InputTypeError, "upos must be a list of strings"),
        (["word"] * 1001, None, InputError, "sentence has 1,001 tokens, over max_sentence_length=1000"),
    ],
)
def test_parse_tokens_checks_words_as_the_cli_does(parser, words, upos, error, message):
    with pytest.raises(error) as raised:
        parser.parse_tokens(words, upos)
    assert str(raised.value).startswith(message)


def test_good_tokens_parse_as_before(parser):
    doc = parser.parse_tokens(("The", "cat", "sat", "."))  # a tuple is a list of words too
    assert doc.error is None and doc.sentences[0].words == ["The", "cat", "sat", "."]
    assert doc.to_json() == parser.parse_tokens(["The", "cat", "sat", "."], upos=None).to_json()


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("bad \ud800 text", InputError, "text holds a lone surrogate ('\\ud800') at position 5"),
        ("The \x00 cat", InputError, "text holds a NUL character at position 5"),
        ("", InputError, "text is empty: nothing to parse"),
        (" \t\n", InputError, "text is empty: nothing to parse"),
        (42, InputTypeError, "text must be a string, got a number"),
        (" ".join(["word"] * 1001), InputError, "text has a sentence of 1,001 tokens (sentence 1)"),
    ],
)
def test_parse_refuses_bad_text_naming_it(parser, text, error, message):
    with pytest.raises(error) as raised:
        parser.parse(text)
    assert str(raised.value).startswith(message)


def test_a_leading_byte_order_mark_is_dropped(parser):
    with_bom = parser.parse("\ufeffThe cat sat on the mat.")
    assert with_bom.to_json() == parser.parse("The cat sat on the mat.").to_json()
    assert with_bom.sentences[0].words[0] == "The"


def test_one_bad_text_fails_alone_in_parse_many(parser):
    texts = ["The cat sat.", "A dog barked.", " ".join(["word"] * 1500), "Birds sing.", None, "", "It rained."]
    results = list(parser.parse_many(texts, batch_size=4, sort_window=4))
    assert len(results) == len(texts)
    failed = {i: r for i, r in enumerate(results) if isinstance(r, InputFailure)}
    assert sorted(failed) == [2, 4, 5]
    assert str(failed[2].error).startswith("texts[2] has a sentence of 1,500 tokens")
    assert failed[2].index == 2 and failed[2].error.alone.startswith("text has a sentence of 1,500 tokens")
    assert str(failed[4].error) == "texts[4] must be a string, got None"  # index across windows
    assert str(failed[5].error) == "texts[5] is empty: nothing to parse"
    assert failed[5].to_json() == {"error": "texts[5] is empty: nothing to parse"}
    assert failed[5].to_conllu() == "# error = texts[5] is empty: nothing to parse\n\n"
    for i in (0, 1, 3, 6):
        assert results[i].error is None and results[i].to_json() == parser.parse(texts[i]).to_json()


def test_parse_sentences_yields_failures_in_place(parser):
    results = list(parser.parse_sentences([(["A", "cat", "."], None), (["a", ""], None), "ab", (["x"] * 1001, None)]))
    assert results[0].error is None and results[0].words == ["A", "cat", "."]
    assert [str(r.error) for r in results[1:]] == [
        "sentences[1]: words[1] is empty or only whitespace",
        "sentences[2] must be a (words, upos or None) pair",
        "sentences[3] has 1,001 tokens, over max_sentence_length=1000; split it into shorter sentences, "
        "or raise the limit (nlp.max_sentence_length)",  # in Python, Python's terms
    ]


def test_tagger_checks_texts_and_tokens():
    nlp = load(tagger_folder("origin"), threads=1)
    for text, message in [
        ("", "text is empty: nothing to tag"),
        ("EU \x00 rejects", "text holds a NUL character at position 4"),
        ("EU \ud800", "text holds a lone surrogate"),
        (b"EU rejects", "text must be a string, got bytes"),
    ]:
        with pytest.raises(InputError) as raised:
            nlp.tag(text)
        assert str(raised.value).startswith(message)
    with pytest.raises(InputError, match=r"^words\[1\] holds a tab"):
        nlp.tag_tokens(["EU", "a\tb"])
    with pytest.raises(InputError, match="^words is empty"):
        nlp.tag_tokens([])
    texts = ["EU rejects German call .", "  ", "Peter Blackburn ."]
    results = list(nlp.tag_many(texts, batch_size=2, sort_window=2))
    assert str(results[1].error) == "texts[1] is empty: nothing to tag"
    assert [r.to_json() for r in (results[0], results[2])] == [nlp.tag(texts[0]).to_json(), nlp.tag(texts[2]).to_json()]
    tags = list(nlp.tag_sentences([["EU", "rejects"], ["a", ""]]))
    assert tags[0] == nlp.tag_tokens(["EU", "rejects"]).tags
    assert str(tags[1].error) == "sentences[1]: words[1] is empty or only whitespace"


def test_classifier_checks_texts(classifier):
    for text, message in [
        ("", "text is empty: nothing to classify"),
        ("a fine \x00 film", "text holds a NUL character at position 8"),
        ("fine \ud800", "text holds a lone surrogate"),
        (None, "text must be a string, got None"),
    ]:
        with pytest.raises(InputError) as raised:
            classifier.classify(text)
        assert str(raised.value).startswith(message)
    assert classifier.classify("\ufeffa fine film").to_json() == classifier.classify("a fine film").to_json()
    texts = ["a fine film", "", 3, "zzqx vvkj", "dull"]
    results = list(classifier.classify_many(texts, batch_size=2, no_known_features="error"))
    assert [str(r.error) if r.error else None for r in results[:3]] == [
        None,
        "texts[1] is empty: nothing to classify",
        "texts[2] must be a string, got a number",
    ]
    assert str(results[3].error).startswith("texts[3] has no n-gram the model knows")
    assert results[4].to_json() == classifier.classify("dull").to_json()
    assert not any(isinstance(r, InputFailure) for r in classifier.classify_many(["zzqx vvkj"]))  # flagged


@pytest.mark.parametrize("line", ['["a fine film", 1]', '  ["a", "b"]  ', "[]"])
def test_a_json_array_line_is_refused(line):
    with pytest.raises(ValueError, match=r"^a JSON array \(\d items\), not an object or text"):
        json_object(line)


@pytest.mark.parametrize("line", ["[Laughter] a fine film", "[1, 2", "[a] and [b]"])
def test_text_that_starts_with_a_bracket_stays_text(line):
    assert json_object(line) is None


@pytest.mark.parametrize("command, model", [("classify", "en-sst2-sentiment"), ("parse", "en-ewt-parser")])
def test_the_cli_gives_error_records_for_empty_text_and_json_arrays(tmp_path, capsys, command, model):
    from green_nlp.cli import run_runtime

    source, out = tmp_path / "in.txt", tmp_path / "out.jsonl"
    source.write_text('a fine film\n{"text": ""}\n["a fine film", 1]\n{"text": "\\ufeffa fine film"}\n')
    status = run_runtime([command, model, str(source), "-o", str(out), "--format", "json", "--no-progress"])
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert status == 0 and [r["line"] for r in records] == [1, 2, 3, 4]
    assert records[1]["error"] == f"text is empty: nothing to {command}"
    assert records[2]["error"].startswith("cannot read the line: a JSON array (2 items), not an object or text")
    assert {k: v for k, v in records[3].items() if k != "line"} == {k: v for k, v in records[0].items() if k != "line"}
    assert "2 lines predicted, 2 skipped, 0 blank" in capsys.readouterr().err


@pytest.mark.parametrize("separator", ["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])
def test_a_word_holding_any_line_separator_is_refused(separator):
    with pytest.raises(InputError, match=r"words\[1\] holds a line break"):
        check_tokens(["a", f"b{separator}c"])


def test_a_text_over_spacys_length_limit_fails_alone(parser, monkeypatch):
    """spaCy refuses a text over `nlp.max_length` (E088) with its own ValueError, which ended a whole
    `parse_many`; it is now that text's InputError, and the texts around it are parsed."""
    monkeypatch.setattr(parser.segmenter._pipeline(), "max_length", 30)
    results = list(parser.parse_many(["A cat sat .", "word " * 10, "A dog ran ."]))
    assert [r.error is None for r in results] == [True, False, True]
    assert str(results[1].error).startswith("texts[1] has 49 characters, over the 30 spaCy's tokenizer takes")


def test_a_many_call_refuses_one_string_or_a_dict_in_place_of_a_list(parser, classifier):
    """parse_many("abc") parsed a, b and c; classify_many({"text": ...}) classified the key."""
    for call, name in [
        (lambda items: parser.parse_many(items), "texts"),
        (lambda items: parser.parse_sentences(items), "sentences"),
        (lambda items: classifier.classify_many(items), "texts"),
    ]:
        with pytest.raises(InputTypeError, match=f"^{name} is one string, not a list: each of its characters"):
            list(call("good"))
        with pytest.raises(InputTypeError, match=f"^{name} is a dict, not a list"):
            list(call({"text": "good"}))
        for value, kind in ((None, "None"), (3, "int")):  # Python's own TypeError named no argument
            with pytest.raises(
                InputTypeError, match=rf"^{name} must be a list \(or any iterable\) of inputs, got {kind}$"
            ):
                list(call(value))
    assert len(list(classifier.classify_many(("good", "bad")))) == 2  # any other iterable still streams


@pytest.mark.parametrize("value", ["2", 2.0, True, None])
def test_counts_of_the_wrong_type_are_refused_naming_the_setting(parser, classifier, value):
    if value is not None:
        with pytest.raises(TypeError, match=f"^batch_size must be a positive whole number, got {value!r}"):
            list(parser.parse_many(["a b"], batch_size=value))
        with pytest.raises(TypeError, match=f"^batch_size must be a positive whole number, got {value!r}"):
            list(classifier.classify_many(["good"], batch_size=value))
        with pytest.raises(TypeError, match=f"^threads must be a positive whole number, got {value!r}"):
            load("en-sst2-sentiment", threads=value)
    with pytest.raises(TypeError, match="^a model is a name or a folder path, got None"):
        load(None)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError, match="^the model name or folder is empty"):
        load(" ")


@pytest.mark.parametrize(
    "value, error, message",
    [
        (None, TypeError, "must be a whole number, got None"),
        ("abc", TypeError, "must be a whole number, got 'abc'"),
        (True, TypeError, "must be a whole number, got True"),
        (0, ValueError, "must be between 1 and 4096"),
        (10**7, ValueError, "must be between 1 and 4096 .*got 10000000"),
    ],
)
def test_a_max_sentence_length_set_by_hand_is_checked_when_set(value, error, message):
    """None or "abc" ended in Python's own `'<=' not supported` at the first sentence, and 10**7 let
    one line take all memory (the CLI's --max-sentence-length stops at 4096)."""
    for nlp in (load("en-ewt-parser", threads=1), load(tagger_folder("origin"), threads=1)):
        with pytest.raises(error, match=f"^max_sentence_length {message}"):
            nlp.max_sentence_length = value
        nlp.max_sentence_length = 12
        assert nlp.max_sentence_length == 12


def test_the_tagger_refuses_a_sentence_over_its_max_sentence_length_in_place():
    """It had no limit: one line of 20,000 words took 2.7 GB."""
    nlp = load(tagger_folder("origin"), threads=1)
    nlp.max_sentence_length = 5
    results = list(nlp.tag_many(["EU rejects German call .", "one two three four five six seven", "Peter ."]))
    assert [isinstance(result, InputFailure) for result in results] == [False, True, False]
    assert str(results[1].error).startswith(
        "texts[1] has a sentence of 7 tokens (sentence 1), over max_sentence_length=5"
    )
    failed = list(nlp.tag_sentences([["a", "b"], ["w"] * 6]))
    assert isinstance(failed[1], InputFailure) and "sentences[1] has 6 tokens" in str(failed[1].error)
    with pytest.raises(InputError, match="sentence has 6 tokens, over max_sentence_length=5"):
        nlp.tag_tokens(["w"] * 6)
