from collections import Counter, defaultdict

from allennlp.data import Token, Vocabulary
from allennlp.data.fields import TextField

from green_nlp.data.gold_label_field import UNSEEN_LABEL, GoldLabelField


def test_unseen_labels_index_as_unseen_and_known_ones_as_usual():
    vocab = Vocabulary(non_padded_namespaces=["*labels"])
    vocab.add_tokens_to_namespace(["nsubj", "root"], "deprel_labels")
    text = TextField([Token(w) for w in ["she", "left", "early"]])
    field = GoldLabelField(["nsubj", "root", "advmod:new"], text, label_namespace="deprel_labels")
    field.index(vocab)
    tensor = field.as_tensor({"num_tokens": 5})
    assert tensor.tolist() == [0, 1, UNSEEN_LABEL, 0, 0]


def test_counting_still_builds_the_vocabulary():
    text = TextField([Token("hi")])
    counts: dict = defaultdict(Counter)
    GoldLabelField(["root"], text, label_namespace="deprel_labels").count_vocab_items(counts)
    assert counts["deprel_labels"] == {"root": 1}
