"""`green_nlp.runtime.tagger_results`: the predictor's spans and record, and CoNLL columns."""

import random

from green_nlp.dataset_readers.conll_tagging import bioes_to_spans
from green_nlp.runtime.tagger_results import TaggedText, bioes_spans

TAGS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC"]


def test_spans_equal_the_readers_on_random_and_ill_formed_sequences():
    rng = random.Random(3)
    for _ in range(3000):
        tags = [rng.choice(TAGS) for _ in range(rng.randint(0, 9))]
        expected = [(label, start, end) for label, (start, end) in bioes_to_spans(tags)]
        assert bioes_spans(tags) == expected, tags


def test_record_and_conll_columns():
    tagged = TaggedText()
    tagged.add_sentence(["Sarah", "Jones", "left", "."], ["B-PER", "E-PER", "O", "O"])
    tagged.add_sentence(["Paris", "!"], ["S-LOC", "O"])
    assert tagged.to_json() == {
        "words": ["Sarah", "Jones", "left", ".", "Paris", "!"],
        "tags": ["B-PER", "E-PER", "O", "O", "S-LOC", "O"],
        "sentence_starts": [0, 4],
        "spans": [
            {"start": 0, "end": 2, "label": "PER", "text": "Sarah Jones"},
            {"start": 4, "end": 5, "label": "LOC", "text": "Paris"},
        ],
    }
    assert tagged.to_conll() == "Sarah\tB-PER\nJones\tE-PER\nleft\tO\n.\tO\n\nParis\tS-LOC\n!\tO\n"
    assert TaggedText().to_conll() == "" and TaggedText().to_json()["spans"] == []


def test_a_span_never_crosses_a_sentence_start():
    tagged = TaggedText()
    tagged.add_sentence(["New"], ["B-LOC"])
    tagged.add_sentence(["York"], ["E-LOC"])
    assert [(span["start"], span["end"]) for span in tagged.spans] == [(0, 1), (1, 2)]
