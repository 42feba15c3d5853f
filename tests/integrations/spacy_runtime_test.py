"""spaCy components on runtime folders (issue 43 item 5): `config={"model": "en-ewt-parser"}` runs
without torch or allennlp and gives the runtime's own parse; the classifier likewise."""

import json
import os
import subprocess
import sys

import numpy
import pytest
import spacy
from spacy.tokens import Doc

from green_nlp.integrations.spacy_common import set_ud_columns
from green_nlp.runtime import load
from green_nlp.runtime.parser_results import ParsedSentence
from tests.conftest import REPO_ROOT

TEXTS = ["The cats were sitting on the mat. They liked it a lot.", "A quick test  \n of spaces.", ""]


@pytest.fixture(scope="module")
def nlp():
    pipeline = spacy.blank("en")
    pipeline.add_pipe("sentencizer")
    pipeline.add_pipe("green_nlp_parser", config={"model": "en-ewt-parser", "batch_size": 2})
    pipeline.add_pipe("green_nlp_classifier", config={"model": "en-sst2-sentiment"})
    return pipeline


def test_parser_gives_the_runtime_s_parse_per_sentence(nlp):
    parser = load("en-ewt-parser")
    for doc in nlp.pipe(TEXTS, batch_size=2):
        for sentence in doc.sents:
            words = [t for t in sentence if not t.is_space]
            expected = parser.parse_tokens([t.text for t in words]).sentences[0]
            heads = [0 if t.head.i == t.i else [w.i for w in words].index(t.head.i) + 1 for t in words]
            assert heads == expected.heads
            assert [t.dep_ for t in words] == expected.deprels and [t.pos_ for t in words] == expected.upos
            assert sum(t.head.i == t.i for t in sentence) == 1
        assert all(t.dep_ == "dep" and t.pos_ == "SPACE" for t in doc if t.is_space)


def test_relations_whose_spacy_hash_is_over_2_63_are_written(nlp):
    """`nummod`, `aux:pass` ... hash above 2^63 in spaCy's string store: once an OverflowError on
    18 % of EWT test's sentences."""
    doc = nlp("I saw two dogs. The cake was eaten by the children.")
    parser = load("en-ewt-parser")
    assert [t.dep_ for t in doc] == [
        d for s in doc.sents for d in parser.parse_tokens([t.text for t in s]).sentences[0].deprels
    ]
    assert {"nummod", "aux:pass"} <= {t.dep_ for t in doc}
    assert doc._.green_error is None


def test_every_relation_of_the_shipped_parser_survives_the_doc_arrays():
    from spacy.attrs import DEP, HEAD

    from green_nlp.integrations.spacy_common import fill_tree

    labels = load("en-ewt-parser").meta["labels"]["deprel"]
    assert any(spacy.blank("en").vocab.strings.add(label) >= 1 << 63 for label in labels)
    pipeline = spacy.blank("en")
    for label in labels:
        doc = pipeline("one two")
        array = numpy.zeros((2, 3), dtype="int64")
        fill_tree(doc, array, doc[:], [0, 1], ([2, 0], [label, "root"], None))
        doc.from_array([HEAD, DEP], array[:, :2].astype("uint64"))
        assert doc[0].dep_ == label and doc[0].head.i == 1


def test_classifier_cats_are_the_runtime_s_probabilities(nlp):
    classifier = load("en-sst2-sentiment")
    for text in TEXTS[:2]:
        doc = nlp(text)
        assert doc.cats == pytest.approx(classifier.classify(text).probabilities)
        assert doc._.green_no_known_features is False
    assert nlp("???")._.green_no_known_features is True  # the prior, flagged


def test_bad_docs_are_flagged_in_pipe_and_named_once(nlp):
    docs = list(nlp.pipe([TEXTS[0], "bad \x00 text"], batch_size=2))
    assert docs[1]._.green_error == (  # each component's reason, none lost
        "green_nlp_parser: token 1 ('\\x00') holds a NUL character; remove it from the text; "
        "green_nlp_classifier: the text holds a NUL character at position 5"
    )
    assert docs[0]._.green_error is None and all(t.dep_ for t in docs[0])
    with pytest.raises(ValueError, match=r"^green_nlp_parser: a sentence of 1200 tokens"):
        nlp(" ".join(["word"] * 1200))


def test_lemmas_morphs_and_tags_are_set_where_the_model_has_them():
    doc = Doc(spacy.blank("en").vocab, words=["cats", "sat"])
    sentence = ParsedSentence(
        words=["cats", "sat"],
        heads=[2, 0],
        deprels=["nsubj", "root"],
        lemmas=["cat", "sit"],
        feats=["Number=Plur", "_"],
        xpos=["NNS", "VBD"],
    )
    set_ud_columns(doc, [0, 1], sentence.lemmas, sentence.feats, sentence.xpos)
    assert [t.lemma_ for t in doc] == ["cat", "sit"] and [t.tag_ for t in doc] == ["NNS", "VBD"]
    assert [str(t.morph) for t in doc] == ["Number=Plur", ""]
    plain = Doc(spacy.blank("en").vocab, words=["cats"])
    bare = ParsedSentence(words=["cats"], heads=[0], deprels=["root"])
    set_ud_columns(plain, [0], bare.lemmas, bare.feats, bare.xpos)
    assert plain[0].lemma_ == "" and str(plain[0].morph) == ""  # nothing invented


def test_exactly_one_of_model_and_archive():
    pipeline = spacy.blank("en")
    with pytest.raises(ValueError, match="give either model"):
        pipeline.add_pipe("green_nlp_parser")
    with pytest.raises(ValueError, match="not both"):
        pipeline.add_pipe("green_nlp_classifier", config={"model": "en-sst2-sentiment", "archive": "x.tar.gz"})
    with pytest.raises(ValueError, match="is a classifier model, not a parser"):
        pipeline.add_pipe("green_nlp_parser", config={"model": "en-sst2-sentiment"})


# torch and allennlp refused before spaCy is imported: as after `pip install .`, where they are absent
CHILD = """
import json, sys
from green_nlp.serve import import_guard
import_guard.install("this test")
import spacy
nlp = spacy.blank("en")
nlp.add_pipe("sentencizer")
nlp.add_pipe("green_nlp_parser", config={"model": "en-ewt-parser"})
nlp.add_pipe("green_nlp_classifier", config={"model": "en-sst2-sentiment"})
doc = nlp("The cat sat on the mat.")
print(json.dumps({
    "deps": [t.dep_ for t in doc], "cats": sorted(doc.cats),
    "heavy": import_guard.heavy_modules(),
    "components_module": "green_nlp.integrations.spacy_components" in sys.modules,
}))
"""


def test_runtime_components_work_without_torch_or_allennlp():
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=REPO_ROOT,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["heavy"] == [] and result["components_module"] is False
    assert result["deps"][2] == "root" and all(result["deps"])
    assert result["cats"] == ["negative", "positive"]


def test_the_classifier_can_average_a_texts_sentences_without_changing_the_shared_model():
    review = "A dull, lifeless plot. The acting is wooden. But the music is wonderful and I smiled throughout."
    split = spacy.blank("en")
    split.add_pipe("green_nlp_classifier", config={"model": "en-sst2-sentiment", "split_sentences": True})
    whole = spacy.blank("en")
    whole.add_pipe("green_nlp_classifier", config={"model": "en-sst2-sentiment"})
    runtime = load("en-sst2-sentiment")
    expected = runtime.classify(review, split_sentences=True).probabilities
    assert split(review).cats == expected != runtime.classify(review).probabilities
    assert whole(review).cats == runtime.classify(review).probabilities  # the same cached model, unsplit
