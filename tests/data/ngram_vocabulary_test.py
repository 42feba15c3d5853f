import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import Instance, Vocabulary
from allennlp.data.fields import LabelField
from allennlp.models.archival import load_archive

from green_nlp.data.fields import NgramField, TeacherLogitsField
from green_nlp.data.ngram_vocabulary import NgramVocabulary, make_analyzer, top_ngrams
from tests.dan_helpers import DAN_FIXTURES, tiny_dan_run

CORPUS = ["The cat sat", "the cat ran", "a dog ran"]


def test_analyzer_gives_exact_ngrams_with_countvectorizer_defaults():
    analyzer = make_analyzer((1, 3))
    # lower-cased; one-character tokens ("a") dropped by the default token pattern
    assert analyzer("The cat sat") == ["the", "cat", "sat", "the cat", "cat sat", "the cat sat"]
    assert analyzer("a dog ran") == ["dog", "ran", "dog ran"]
    assert make_analyzer((2, 2))("The cat sat") == ["the cat", "cat sat"]


def test_top_ngrams_are_exact_counts_in_frequency_order():
    ranked = top_ngrams(CORPUS, make_analyzer((1, 2)), max_features=100)
    assert ranked == [
        ("cat", 2),
        ("ran", 2),
        ("the", 2),
        ("the cat", 2),
        ("cat ran", 1),
        ("cat sat", 1),
        ("dog", 1),
        ("dog ran", 1),
        ("sat", 1),
    ]
    assert [name for name, _ in top_ngrams(CORPUS, make_analyzer((1, 2)), max_features=3)] == ["cat", "ran", "the"]


def test_bad_ngram_range_is_rejected():
    with pytest.raises(ConfigurationError, match="ngram_range"):
        make_analyzer((2, 1))


def _instances(texts, labels):
    analyzer = make_analyzer((1, 2))
    return [
        Instance({"ngrams": NgramField(text, analyzer), "label": LabelField(label)})
        for text, label in zip(texts, labels)
    ]


def test_vocabulary_from_config_holds_top_ngrams_and_labels():
    vocab = Vocabulary.from_params(
        Params({"type": "green_ngram_count_vectorizer", "max_features": 4}),
        instances=_instances(CORPUS, ["x", "y", "y"]),
    )
    assert isinstance(vocab, NgramVocabulary)
    assert [vocab.get_token_from_index(i, "ngrams") for i in range(2, 6)] == ["cat", "ran", "the", "the cat"]
    assert vocab.get_token_to_index_vocabulary("labels") == {"y": 0, "x": 1}


def test_a_vocabulary_without_any_instance_says_no_example_was_kept():
    with pytest.raises(ConfigurationError, match="got zero examples: the reader kept none") as error:
        NgramVocabulary.from_ngram_corpus(instances=[])
    assert "needs instances from the green_ngram_text reader" not in str(error.value)


def test_vocabulary_can_take_its_texts_from_files():
    vocab = NgramVocabulary.from_ngram_corpus(
        instances=_instances(["zebra"], ["x"]),
        max_features=3,
        text_paths=[str(DAN_FIXTURES / "sst2_train.tsv")],
        max_examples_per_path=5,
    )
    assert "zebra" not in vocab.get_token_to_index_vocabulary("ngrams")
    assert vocab.get_vocab_size("ngrams") == 5


def test_ngram_field_indexes_known_ngrams_only():
    vocab = NgramVocabulary.from_ngram_corpus(instances=_instances(CORPUS, ["x", "y", "y"]), max_features=100)
    field = NgramField("the cat barked", make_analyzer((1, 2)))
    field.index(vocab)
    ids = field.as_tensor({"num_ngrams": 5})
    expected = [vocab.get_token_index(n, "ngrams") for n in ("the", "cat", "the cat")]
    assert ids.tolist() == expected + [0, 0]


def test_teacher_logits_follow_the_student_label_order():
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["neg", "pos", "neutral"], "labels")
    field = TeacherLogitsField([2.0, -1.0], ["pos", "neg"])
    field.index(vocab)
    vector = field.as_tensor({})
    assert vector[:2].tolist() == [-1.0, 2.0]
    assert vector[2].item() < -1e3  # a class the teacher does not know: probability ~0


def test_vocabulary_is_saved_in_the_archive_and_reloads():
    run = tiny_dan_run()
    model = load_archive(str(run / "model.tar.gz")).model
    lines = (run / "vocabulary" / "ngrams.txt").read_text().splitlines()
    assert lines[0] == "@@UNKNOWN@@"
    assert model.vocab.get_vocab_size("ngrams") == len(lines) + 1  # + padding
    assert model.ngram_embedding.weight.shape[0] == model.vocab.get_vocab_size("ngrams")
    assert torch.equal(model.ngram_embedding.weight[0], torch.zeros_like(model.ngram_embedding.weight[0]))
