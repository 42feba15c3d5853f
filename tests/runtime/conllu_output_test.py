"""The runtime's CoNLL-U writer: its plain-value path writes exactly what the `conllu` package's
serializer writes (which the predictor's text has always been), and other values go through conllu."""

import random

import conllu
import pytest

from green_nlp.runtime.conllu_output import _plain_block, sentence_to_conllu

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
    comments.setdefault("text", " ".join(words))
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
