"""The runtime's CoNLL-U writer: its plain-value path writes exactly what the `conllu` package's
serializer writes (which the predictor's text has always been), and other values go through conllu."""

import random
import re

import conllu
import pytest

from green_nlp.runtime.conllu_output import _plain_block, sentence_to_conllu
from green_nlp.runtime.conllu_output import rebuilt_text as text_of_tokens

FIELDS = ("lemmas", "upos", "xpos", "feats", "misc")


def by_conllu(sentence):
    """The reference: every token built as a conllu Token and serialized by the package."""
    words = sentence["words"]
    columns = {name: list(sentence.get(name) or [None] * len(words)) for name in FIELDS}
    tokens = [
        conllu.models.Token(
            {
                "id": i + 1,
                "form": words[i],
                "lemma": columns["lemmas"][i],
                "upos": columns["upos"][i],
                "xpos": columns["xpos"][i],
                "feats": columns["feats"][i],
                "head": sentence["heads"][i],
                "deprel": sentence["deprels"][i],
                "deps": None,
                "misc": columns["misc"][i],
            }
        )
        for i in range(len(words))
    ]
    comments = dict(sentence.get("comments") or {})
    misc = sentence.get("misc") or [None] * len(words)
    comments.setdefault("text", text_of_tokens(words, misc, sentence.get("multiword_tokens")))  # tested below
    return conllu.models.TokenList(tokens, metadata=conllu.models.Metadata(comments)).serialize()


def random_sentence(rng):
    n = rng.randint(1, 8)
    values = ["a", "B", "", "_", "Number=Sing|Person=3", "SpaceAfter=No", "ü", None]
    sentence = {
        "words": [rng.choice(["x", "don't", "é", "a b", "1"]) for _ in range(n)],
        "heads": [rng.randint(0, n) for _ in range(n)],
        "deprels": [rng.choice(["root", "nsubj", None, "obl:tmod"]) for _ in range(n)],
    }
    for name in FIELDS:
        if rng.random() < 0.7:
            sentence[name] = [rng.choice(values) for _ in range(n)]
    if rng.random() < 0.5:
        sentence["comments"] = {"sent_id": rng.choice(["s1", "", 7]), "newdoc": None}
    return sentence


def test_the_plain_path_writes_conllus_bytes_for_random_records():
    rng = random.Random(0)
    for _ in range(500):
        sentence = random_sentence(rng)
        assert sentence_to_conllu(sentence) == by_conllu(sentence)


@pytest.mark.parametrize(
    "change",
    [
        {"feats": [{"Number": "Sing"}, None]},  # a dict: conllu writes Number=Sing
        {"misc": [{"SpaceAfter": "No"}, {}]},
        {"heads": [2, None]},
        {"heads": [2, True]},
    ],
)
def test_values_that_are_not_plain_go_through_conllu(change):
    sentence = {"words": ["a", "b"], "heads": [2, 0], "deprels": ["det", "root"], **change}
    columns = [sentence["words"]] + [sentence.get(name) or [None, None] for name in FIELDS[:4]]
    assert (
        _plain_block({}, *columns[:5], sentence["heads"], sentence["deprels"], sentence.get("misc") or [None] * 2)
        is None
    )
    assert sentence_to_conllu(sentence) == by_conllu(sentence)


def marks(block):
    """(FORM, MISC) of every token line, multiword ranges included."""
    return [tuple(line.split("\t")[i] for i in (1, 9)) for line in block.splitlines() if line and line[0] != "#"]


def rebuilt_text(block):
    """The text the tokens spell: multiword tokens instead of their words, a space unless SpaceAfter=No."""
    tokens = conllu.parse(block)[0]
    inside = {i for t in tokens if type(t["id"]) is tuple for i in range(t["id"][0], t["id"][2] + 1)}
    shown = [t for t in tokens if type(t["id"]) is tuple or t["id"] not in inside]
    return "".join(t["form"] + ("" if (t["misc"] or {}).get("SpaceAfter") == "No" else " ") for t in shown).strip()


def test_space_after_no_where_the_text_has_no_space_after_a_word():
    sentence = {
        "words": ["I", "do", "n't", "know", ",", "(", "really", ")"],
        "heads": [4, 4, 4, 0, 4, 7, 4, 7],
        "deprels": ["nsubj", "aux", "advmod", "root", "punct", "punct", "advmod", "punct"],
        "comments": {"text": "I  don't know, (really)"},
        "multiword_tokens": [["2-3", "don't"] + ["_"] * 8],
    }
    block = sentence_to_conllu(sentence)
    assert marks(block) == [
        ("I", "SpacesAfter=\\s\\s"),  # two spaces: kept in MISC, one in `# text`
        ("don't", "_"),  # a space follows the multiword token: its line says so, not its words
        ("do", "_"),
        ("n't", "_"),
        ("know", "SpaceAfter=No"),
        (",", "_"),
        ("(", "SpaceAfter=No"),
        ("really", "SpaceAfter=No"),
        (")", "_"),  # the last word: nothing follows inside the sentence
    ]
    assert rebuilt_text(block) == "I don't know, (really)"
    assert block.startswith("# text = I don't know, (really)\n")


def original_text(block):
    """The text with its own whitespace: SpaceAfter=No and SpacesAfter (UD's escapes) read back."""
    tokens = conllu.parse(block)[0]
    inside = {i for t in tokens if type(t["id"]) is tuple for i in range(t["id"][0], t["id"][2] + 1)}
    text = ""
    for token in (t for t in tokens if type(t["id"]) is tuple or t["id"] not in inside):
        misc = token["misc"] or {}
        gap = "" if misc.get("SpaceAfter") == "No" else " "
        if "SpacesAfter" in misc:
            escaped = misc["SpacesAfter"].replace("\\s", " ").replace("\\t", "\t").replace("\\n", "\n")
            gap = re.sub(r"\\u([0-9A-F]{4})", lambda m: chr(int(m.group(1), 16)), escaped)
        text += token["form"] + gap
    return text.rstrip(" ")


def test_whitespace_runs_go_to_spaces_after_and_the_text_comment_has_one_space():
    text = "Hi   there,\tyou\u00a0can't\u2003 go ."
    sentence = {
        "words": ["Hi", "there", ",", "you", "ca", "n't", "go", "."],
        "heads": [0, 1, 1, 7, 7, 7, 1, 1],
        "deprels": ["root", "vocative", "punct", "nsubj", "aux", "advmod", "parataxis", "punct"],
        "comments": {"text": text},
        "multiword_tokens": [["5-6", "can't"] + ["_"] * 8],
    }
    block = sentence_to_conllu(sentence)
    assert marks(block) == [
        ("Hi", "SpacesAfter=\\s\\s\\s"),
        ("there", "SpaceAfter=No"),
        (",", "SpacesAfter=\\t"),
        ("you", "SpacesAfter=\\u00A0"),
        ("can't", "SpacesAfter=\\u2003\\s"),  # on the multiword token's line
        ("ca", "_"),
        ("n't", "_"),
        ("go", "_"),
        (".", "_"),
    ]
    comment = block.splitlines()[0]
    assert comment == "# text = Hi there,\tyou can't go .".replace("\t", " ")
    assert rebuilt_text(block) == comment[len("# text = ") :]  # as UD's validator rebuilds it
    assert original_text(block) == text  # nothing lost


def test_a_multiword_token_glued_to_the_next_word_carries_the_mark():
    sentence = {
        "words": ["do", "n't", "!"],
        "heads": [0, 1, 1],
        "deprels": ["root", "advmod", "punct"],
        "comments": {"text": "don't!"},
        "multiword_tokens": [["1-2", "don't"] + ["_"] * 8],
    }
    assert marks(sentence_to_conllu(sentence)) == [("don't", "SpaceAfter=No"), ("do", "_"), ("n't", "_"), ("!", "_")]


@pytest.mark.parametrize(
    "sentence",
    [
        # words given by the user: the text comment is theirs joined by spaces, or does not match
        {"words": ["a", "b"], "heads": [2, 0], "deprels": ["det", "root"]},
        {"words": ["a", "b"], "heads": [2, 0], "deprels": ["det", "root"], "comments": {"text": "ab c"}},
        {"words": ["ab", "c"], "heads": [2, 0], "deprels": ["det", "root"], "comments": {"text": "a bc"}},
        # a record that brings its own MISC (CoNLL-U input) keeps it
        {"words": ["a", "b"], "heads": [2, 0], "deprels": ["det", "root"], "comments": {"text": "ab"}, "misc": None},
    ],
)
def test_no_marks_where_the_words_do_not_spell_the_text_or_misc_is_given(sentence):
    assert all(misc == "_" for _, misc in marks(sentence_to_conllu(sentence)))


def test_a_text_comment_holding_line_separators_stays_one_line():
    sentence = {"words": ["a", "b"], "heads": [2, 0], "deprels": ["det", "root"], "comments": {"text": "a\u2028b"}}
    block = sentence_to_conllu(sentence)
    assert block.splitlines()[0] == "# text = a b" and len(block.splitlines()) == len(block.split("\n")) - 1 == 4


def test_a_label_or_lemma_holding_a_tab_or_line_break_does_not_cut_its_row():
    """Words are refused such characters on the way in; a model folder's labels and lemmas are written
    with spaces instead, so every row keeps its 10 columns."""
    sentence = {"words": ["a", "b"], "heads": [2, 0], "deprels": ["de\tt", "ro\u2028ot"], "lemmas": ["x\ny", "b"]}
    rows = [line.split("\t") for line in sentence_to_conllu(sentence).splitlines() if line and line[0] != "#"]
    assert [len(row) for row in rows] == [10, 10]
    assert [(row[2], row[7]) for row in rows] == [("x y", "de t"), ("b", "ro ot")]


def test_a_label_holding_a_carriage_return_and_line_feed_does_not_cut_its_row():
    """ "\r\n" is one break to `splitlines` and one "\n" to a count: the row check counts both."""
    sentence = {"words": ["a", "b"], "heads": [2, 0], "deprels": ["det\r\nx", "root"]}
    rows = [line.split("\t") for line in sentence_to_conllu(sentence).splitlines() if line and line[0] != "#"]
    assert [len(row) for row in rows] == [10, 10] and rows[0][7] == "det  x"


@pytest.mark.parametrize("multiword", [False, True])
def test_a_sentence_the_next_follows_at_once_ends_with_space_after_no(multiword):
    from green_nlp.runtime.conllu_output import SentenceText

    sentence = {"words": ["I", "lost", "."], "heads": [2, 0, 2], "deprels": ["nsubj", "root", "punct"]}
    if multiword:  # the mark goes on the multiword token's line
        sentence = {**sentence, "words": ["I", "ca", "n't"], "multiword_tokens": [["2-3", "can't"] + ["_"] * 8]}
    text = "I can't" if multiword else "I lost."
    glued = sentence_to_conllu({**sentence, "comments": {"text": SentenceText(text, space_after=False)}})
    spaced = sentence_to_conllu({**sentence, "comments": {"text": SentenceText(text, space_after=True)}})
    assert marks(glued)[-1 if not multiword else 1][1] == "SpaceAfter=No"
    assert marks(spaced)[-1 if not multiword else 1][1] == "_"
    assert "# text = " + text + "\n" in glued


def test_a_sentence_without_a_text_comment_gets_the_text_its_tokens_spell():
    """CoNLL-U without `# text` (UD Chinese GSD 1.3, or the comments removed) got its words joined by
    spaces: the parts of a multiword token and a comma marked SpaceAfter=No stood apart, a text
    that contradicted the file's own tokens."""
    words = ["Jimbulang", "da", "fa", "di", "baatukaay", ",", "ndax", "."]
    misc = ["_", "_", "_", "_", "SpaceAfter=No", "_", "SpaceAfter=No", "_"]
    multiword = [["2-3", "dafa", "_", "_", "_", "_", "_", "_", "_", "_"]]
    record = {"words": words, "heads": [0, 1, 1, 1, 1, 5, 1, 1], "deprels": ["root"] + ["dep"] * 7}
    block = sentence_to_conllu({**record, "misc": misc, "multiword_tokens": multiword, "comments": {"sent_id": "1"}})
    assert block.startswith("# sent_id = 1\n# text = Jimbulang dafa di baatukaay, ndax.\n")
    assert rebuilt_text(block) == "Jimbulang dafa di baatukaay, ndax."  # what the file's own tokens spell
    assert "\n2-3\tdafa\t" in block
    glued = [["2-3", "dafa", "_", "_", "_", "_", "_", "_", "_", "SpaceAfter=No"]]  # the mark on the token's line
    assert "# text = Jimbulang dafadi" in sentence_to_conllu({**record, "misc": misc, "multiword_tokens": glued})
    # a record of words alone (the runtime's JSON input) keeps one space between words
    assert sentence_to_conllu(record).splitlines()[0] == "# text = Jimbulang da fa di baatukaay , ndax ."
