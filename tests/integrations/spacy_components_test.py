"""The spaCy components on real `spacy.blank("en")` pipelines and real green_nlp archives."""

import ast
import importlib
import json

import pytest
import spacy
from allennlp.predictors import Predictor
from spacy.tokens import Doc

from green_nlp.integrations.spacy_components import cached_archive, entity_spans, probs_to_cats
from tests.conftest import FIXTURES, REPO_ROOT

TEACHER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"  # trained with gold UPOS input
TEXTS = [
    "the small cat sees a green dog . every teacher trains the model in the city .",
    "The old parser finds a quick tree near the river.",
    "a student reads this book today .  \n the dog runs .",
]


@pytest.fixture(scope="module")
def raw_text_nlp(quickstart_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("green_nlp_parser", config={"archive": str(quickstart_archive), "batch_size": 2})
    return nlp


def _reference(archive_path, words):
    """The same sentence through the parser's own allennlp predictor."""
    predictor = Predictor.from_archive(
        cached_archive(str(archive_path)),
        predictor_name="green_dependency_parser",
        extra_args={"output_format": "json"},
    )
    return predictor.predict_json({"words": words})["sentences"][0]


def test_parser_sets_heads_relations_and_upos_like_the_predictor(raw_text_nlp, quickstart_archive):
    doc = raw_text_nlp(TEXTS[0])
    sentences = list(doc.sents)
    assert len(sentences) == 2  # the sentencizer's boundaries survive the parse
    for sentence in sentences:
        reference = _reference(quickstart_archive, [t.text for t in sentence])
        heads = [0 if t.head.i == t.i else t.head.i - sentence.start + 1 for t in sentence]
        assert heads == reference["heads"]
        assert [t.dep_ for t in sentence] == reference["deprels"]
        assert [t.pos_ for t in sentence] == reference["upos"]
        assert sum(t.head.i == t.i for t in sentence) == 1  # one root per sentence
        assert all(sentence.start <= t.head.i < sentence.end for t in sentence)


def test_pipe_batches_give_the_same_parses_as_one_doc_at_a_time(raw_text_nlp):
    batched = list(raw_text_nlp.pipe(TEXTS, batch_size=2))
    single = [raw_text_nlp(text) for text in TEXTS]
    for a, b in zip(batched, single):
        assert [(t.head.i, t.dep_, t.pos_) for t in a] == [(t.head.i, t.dep_, t.pos_) for t in b]


def test_whitespace_tokens_and_empty_docs(raw_text_nlp):
    doc = raw_text_nlp(TEXTS[2])
    spaces = [t for t in doc if t.is_space]
    assert spaces and all(t.dep_ == "dep" and not t.head.is_space for t in spaces)
    assert len(raw_text_nlp("")) == 0
    blank = raw_text_nlp("   ")
    assert [t.dep_ for t in blank] == ["dep"]


def test_parser_without_sentencizer_parses_the_doc_as_one_sentence(quickstart_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("green_nlp_parser", config={"archive": str(quickstart_archive)})
    doc = nlp(TEXTS[1])
    assert sum(t.head.i == t.i for t in doc) == 1


def test_parser_with_upos_input_reads_token_pos(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("green_nlp_parser", config={"archive": str(TEACHER)})
    words = ["the", "teacher", "trains", "a", "model", "."]
    upos = ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"]
    with pytest.raises(ValueError, match="gold UPOS input"):
        nlp(Doc(nlp.vocab, words=words))
    doc = nlp(Doc(nlp.vocab, words=words, pos=upos))
    reference = Predictor.from_archive(
        cached_archive(str(TEACHER)), "green_dependency_parser", extra_args={"output_format": "json"}
    ).predict_json({"words": words, "upos": upos})["sentences"][0]
    assert [0 if t.head.i == t.i else t.head.i + 1 for t in doc] == reference["heads"]
    assert [t.pos_ for t in doc] == upos  # this model predicts no UPOS: the tagger's stay


def test_a_missing_or_non_parser_archive_is_rejected_clearly(tmp_path):
    nlp = spacy.blank("en")
    with pytest.raises(FileNotFoundError, match="missing.tar.gz"):
        nlp.add_pipe("green_nlp_parser", config={"archive": str(tmp_path / "missing.tar.gz")})
    tagger = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"
    if tagger.exists():
        with pytest.raises(ValueError, match="not a green_nlp dependency parser archive"):
            nlp.add_pipe("green_nlp_parser", name="wrong", config={"archive": str(tagger)})


# ------------------------------------------------------------------------------------ NER
def _ents(doc, tags, words=None):
    indices = [t.i for t in doc if not t.is_space]
    return [(e.text, e.label_) for e in entity_spans(doc, indices, words or [doc[i].text for i in indices], tags)]


def test_bioes_tags_become_entities_on_a_real_doc():
    nlp = spacy.blank("en")
    doc = nlp("Ada Lovelace visited New York and Paris yesterday.")
    assert _ents(doc, ["B-PER", "E-PER", "O", "B-LOC", "E-LOC", "O", "S-LOC", "O", "O"]) == [
        ("Ada Lovelace", "PER"),
        ("New York", "LOC"),
        ("Paris", "LOC"),
    ]
    # lenient like the tagger's metric: an I- that continues nothing starts a span
    assert _ents(doc, ["I-PER", "E-PER", "O", "O", "O", "O", "O", "O", "O"]) == [("Ada Lovelace", "PER")]
    with pytest.raises(ValueError, match="tags"):
        _ents(doc, ["O"])


def test_entities_map_back_when_the_model_tokenized_differently():
    doc = spacy.blank("en")("Ada can't visit Paris.")
    doc_words = [t.text for t in doc]
    assert doc_words == ["Ada", "ca", "n't", "visit", "Paris", "."]
    model_words = ["Ada", "can't", "visit", "Paris."]
    assert _ents(doc, ["S-PER", "O", "O", "S-LOC"], model_words) == [("Ada", "PER"), ("Paris.", "LOC")]


def test_ner_component_matches_the_tagger_predictor():
    archive = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"
    if not archive.exists():
        pytest.skip(f"no tagger fixture archive at {archive}")
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("green_nlp_ner", config={"archive": str(archive), "batch_size": 2})
    predictor = Predictor.from_archive(cached_archive(str(archive)))
    texts = ["Paul lives in New York. EU rejects German call.", "", "Peter Blackburn visited Brussels ."]
    found = 0
    for doc in nlp.pipe(texts, batch_size=2):
        expected = []
        for sentence in doc.sents:
            words = [t.text for t in sentence if not t.is_space]
            for span in predictor.predict_json({"words": words})["spans"]:
                expected.append((sentence.start + span["start"], sentence.start + span["end"], span["label"]))
        assert [(e.start, e.end, e.label_) for e in doc.ents] == expected
        found += len(expected)
    assert found  # the tiny tagger does tag something, so the comparison is not vacuous


# -------------------------------------------------------------------- classifier conversion
def test_probs_to_cats_on_a_real_doc():
    doc = spacy.blank("en")("a fine film")
    doc.cats = probs_to_cats([0.25, 0.75], {0: "neg", 1: "pos"})
    assert doc.cats == {"neg": 0.25, "pos": 0.75}
    with pytest.raises(ValueError, match="labels"):
        probs_to_cats([0.5, 0.25, 0.25], {0: "neg", 1: "pos"})


# ------------------------------------------------------------------------------ registration
def test_setup_py_entry_points_name_the_registered_factories():
    """spaCy finds the factories through `spacy_factories` entry points without importing green_nlp."""
    tree = ast.parse((REPO_ROOT / "setup.py").read_text())
    entry_points = next(
        ast.literal_eval(k.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        for k in node.keywords
        if k.arg == "entry_points"
    )
    declared = dict(item.split(" = ") for item in entry_points["spacy_factories"])
    assert set(declared) == {"green_nlp_parser", "green_nlp_ner", "green_nlp_classifier"}
    for name, target in declared.items():
        module, attribute = target.split(":")
        factory = getattr(importlib.import_module(module), attribute)
        assert spacy.registry.factories.get(name) is factory


# ----------------------------------------------------------------------- classifier end to end
@pytest.fixture(scope="module")
def dan_archive(tmp_path_factory):
    """The tiny n-gram DAN of fixtures/dan/, trained here (seconds): there is no committed archive."""
    import os

    from allennlp.commands.train import train_model_from_file

    run = tmp_path_factory.mktemp("dan") / "run"
    cwd = os.getcwd()
    os.chdir(REPO_ROOT)
    try:
        train_model_from_file(str(FIXTURES / "dan" / "dan_experiment.jsonnet"), str(run), force=True)
    finally:
        os.chdir(cwd)
    return run / "model.tar.gz"


def test_classifier_component_matches_the_dan_predictor(dan_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("green_nlp_classifier", config={"archive": str(dan_archive), "batch_size": 2})
    predictor = Predictor.from_archive(cached_archive(str(dan_archive)))
    texts = ["a fine and moving film", "dull , flat and far too long", "", "the best thing this year"]
    docs = list(nlp.pipe(texts, batch_size=2))
    empty = docs.pop(2)  # refused by the predictor as by the runtime: unannotated, the reason flagged
    assert empty.cats == {} and "is empty: nothing to classify" in empty._.green_error
    texts.pop(2)
    for text, doc in zip(texts, docs):
        expected = predictor.predict_json({"text": text})
        assert doc.cats == pytest.approx(dict(zip(expected["label_names"], expected["probs"])))
        assert sum(doc.cats.values()) == pytest.approx(1.0)
        assert max(doc.cats, key=doc.cats.get) == expected["label"]
    assert nlp(texts[0]).cats == docs[0].cats


def test_classifier_component_on_an_archive_can_average_sentences_as_its_predictor_does(dan_archive):
    documents = ["a fine and moving film. dull , flat and far too long! the best thing this year"]
    split = spacy.blank("en")
    split.add_pipe("green_nlp_classifier", config={"archive": str(dan_archive), "split_sentences": True})
    predictor = Predictor.from_archive(cached_archive(str(dan_archive)), extra_args={"split_sentences": True})
    expected = predictor.predict_json({"text": documents[0]})
    assert split(documents[0]).cats == pytest.approx(dict(zip(expected["label_names"], expected["probs"])))
    whole = Predictor.from_archive(cached_archive(str(dan_archive))).predict_json({"text": documents[0]})
    assert expected["probs"] != pytest.approx(whole["probs"])


def test_a_predictor_without_the_sentence_split_is_refused_by_name(dan_archive):
    nlp = spacy.blank("en")
    config = {"archive": str(dan_archive), "split_sentences": True, "predictor": "text_classifier"}  # allennlp's own
    with pytest.raises(ValueError, match=r"the predictor takes no \['split_sentences'\]"):
        nlp.add_pipe("green_nlp_classifier", config=config)


def test_classifier_cats_carry_the_label_names():
    from tests.dan_helpers import sst2_label_names, tiny_dan_run, tiny_named_dan_run

    nlp = spacy.blank("en")
    nlp.add_pipe("green_nlp_classifier", config={"archive": str(tiny_named_dan_run() / "model.tar.gz")})
    assert set(nlp("a fine and moving film").cats) == {"negative", "positive"}
    raw = spacy.blank("en")  # an archive trained on "0"/"1", named through the component's overrides
    raw.add_pipe(
        "green_nlp_classifier",
        config={
            "archive": str(tiny_dan_run() / "model.tar.gz"),
            "overrides": json.dumps({"validation_dataset_reader.label_names": sst2_label_names()}),
        },
    )
    plain = spacy.blank("en")
    plain.add_pipe("green_nlp_classifier", config={"archive": str(tiny_dan_run() / "model.tar.gz")})
    text = "dull , flat and far too long"
    assert raw(text).cats == {sst2_label_names()[label]: p for label, p in plain(text).cats.items()}


# ------------------------------------------------------------------ one bad doc in nlp.pipe (issue 34)
def test_pipe_keeps_the_good_docs_and_flags_an_over_long_one(quickstart_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe(
        "green_nlp_parser",
        name="parser20",
        config={"archive": str(quickstart_archive), "batch_size": 4, "max_sentence_length": 20},
    )
    too_long = " ".join(["word"] * 25)
    texts = [TEXTS[0], too_long, TEXTS[1], TEXTS[2]]
    docs = list(nlp.pipe(texts, batch_size=4))  # the bad doc is in the same batch as the good ones
    assert [doc.text for doc in docs] == texts  # order kept, none lost
    assert "parser20" in docs[1]._.green_error and "max_sentence_length=20" in docs[1]._.green_error
    assert not any(token.dep_ for token in docs[1])  # left unannotated, not half-parsed
    for text, doc in zip(texts, docs):
        if doc is docs[1]:
            continue
        alone = nlp(text)
        assert doc._.green_error is None
        assert [(t.head.i, t.dep_, t.pos_) for t in doc] == [(t.head.i, t.dep_, t.pos_) for t in alone]
        assert all(t.dep_ for t in doc)
    with pytest.raises(ValueError, match="max_sentence_length=20"):  # one doc on its own: a clear error
        nlp(too_long)


def test_classifier_pipe_flags_a_doc_with_a_nul_and_keeps_the_rest(dan_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("green_nlp_classifier", config={"archive": str(dan_archive), "batch_size": 3})
    texts = ["a fine and moving film", "binary \x00 junk", "dull , flat and far too long"]
    docs = list(nlp.pipe(texts, batch_size=3))
    assert "NUL" in docs[1]._.green_error and docs[1].cats == {}
    assert docs[0].cats == pytest.approx(nlp(texts[0]).cats) and docs[2].cats == pytest.approx(nlp(texts[2]).cats)
    assert docs[0]._.green_error is None and docs[0].cats


@pytest.fixture(scope="module")
def ud_heads_archive(tmp_path_factory):
    """The fixture parser with LEMMA / FEATS / XPOS heads, trained by `allennlp train` (a few seconds)."""
    import os

    from allennlp.commands.train import train_model_from_file

    run = tmp_path_factory.mktemp("ud_heads") / "run"
    cwd = os.getcwd()
    os.chdir(REPO_ROOT)  # the config names fixture paths relative to the repo root
    try:
        train_model_from_file(str(FIXTURES / "parser" / "experiment_ud_heads.jsonnet"), str(run))
    finally:
        os.chdir(cwd)
    return run / "model.tar.gz"


def test_parser_archive_sets_lemmas_morphs_and_tags_as_its_predictor_writes_them(ud_heads_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("green_nlp_parser", config={"archive": str(ud_heads_archive)})
    doc = nlp("the dog sees the cats")
    reference = _reference(ud_heads_archive, [t.text for t in doc])
    assert [t.lemma_ for t in doc] == reference["lemmas"]
    assert [str(t.morph) for t in doc] == ["" if f == "_" else f for f in reference["feats"]]
    assert [t.tag_ for t in doc] == reference["xpos"]
    assert any(str(t.morph) for t in doc) and any(t.lemma_ != t.text for t in doc)  # the heads are used
