import pytest

from green_nlp.dataset_readers.conll_tagging import (
    ConllTaggingFormatError,
    ConllTaggingReader,
    bioes_to_spans,
    from_bioes,
    to_bioes,
)
from tests.conftest import BAD_INPUTS, FIXTURES, require_data

DATA = FIXTURES / "ldnet" / "data"


def _where(n):
    return [f"f:{i}" for i in range(n)]


def test_iob1_to_bioes():
    tags = ["I-PER", "I-PER", "B-PER", "O", "I-LOC", "I-ORG", "I-ORG", "I-ORG"]
    assert to_bioes(tags, "IOB1", _where(8)) == ["B-PER", "E-PER", "S-PER", "O", "S-LOC", "B-ORG", "I-ORG", "E-ORG"]


def test_bio_to_bioes_and_bad_bio_is_an_error_naming_the_line():
    assert to_bioes(["B-NP", "I-NP", "B-NP", "B-VP", "O"], "BIO", _where(5)) == ["B-NP", "E-NP", "S-NP", "S-VP", "O"]
    with pytest.raises(ConllTaggingFormatError, match="f:1: I-VP does not continue a VP span"):
        to_bioes(["B-NP", "I-VP"], "BIO", _where(2))
    with pytest.raises(ConllTaggingFormatError, match="f:0: tag 'X-NP'"):
        to_bioes(["X-NP"], "BIO", _where(1))


def test_conll2003_fields_are_exact_and_docstart_lines_are_skipped():
    reader = ConllTaggingReader(encoding="IOB1")
    instances = list(reader.read(str(DATA / "ner_conll2003_train.txt")))
    assert len(instances) == 25  # 24 template sentences + one with two adjacent LOC spans
    first = instances[0]
    words = ["The", "German", "team", "beat", "Britain", "in", "Germany", "."]
    assert [t.text for t in first["tokens"].tokens] == words
    assert first["tags"].labels == ["O", "S-MISC", "O", "O", "S-LOC", "O", "S-LOC", "O"]
    assert first["metadata"]["words"][0] == "The"
    last = instances[-1]
    assert last["tags"].labels == ["S-LOC", "S-LOC", "O", "O"]  # I-LOC B-LOC: two spans
    assert all("-DOCSTART-" not in [t.text for t in i["tokens"].tokens] for i in instances)


def test_wnut_tab_separated_bio():
    instances = list(ConllTaggingReader(encoding="BIO").read(str(DATA / "ner_wnut17_train.txt")))
    assert instances[0]["tags"].labels[:5] == ["S-corporation", "O", "B-person", "E-person", "O"]


def test_dev_is_carved_from_train_without_overlap():
    path = str(DATA / "chunking_train.txt")
    everything = [tuple(t.text for t in i["tokens"].tokens) for i in ConllTaggingReader(encoding="BIO").read(path)]
    train = list(ConllTaggingReader(encoding="BIO", split="train", dev_size=4).read(path))
    dev = list(ConllTaggingReader(encoding="BIO", split="dev", dev_size=4).read(path))
    assert len(dev) == 4 and len(train) == len(everything) - 4
    with pytest.raises(ValueError, match="too few"):
        list(ConllTaggingReader(encoding="BIO", split="dev", dev_size=1000).read(path))


def test_missing_tag_column_names_file_and_line():
    path = BAD_INPUTS / "conll_missing_tag.conll"
    with pytest.raises(ConllTaggingFormatError, match=f"{path}:4: expected 4 non-empty columns"):
        list(ConllTaggingReader().read(str(path)))


def test_invalid_bio_names_file_and_line():
    path = BAD_INPUTS / "conll_invalid_bio.conll"
    with pytest.raises(ConllTaggingFormatError, match=f"{path}:3: I-person does not continue"):
        list(ConllTaggingReader(encoding="BIO").read(str(path)))


def test_bioes_spans_are_lenient_like_seqeval():
    assert bioes_to_spans(["B-PER", "E-PER", "O", "S-LOC"]) == [("PER", (0, 1)), ("LOC", (3, 3))]
    assert bioes_to_spans(["I-PER", "E-PER", "E-LOC", "B-ORG"]) == [("PER", (0, 1)), ("LOC", (2, 2)), ("ORG", (3, 3))]
    assert bioes_to_spans(["S-LOC", "O"], ["LOC"]) == []


def test_real_conll2003_reads_completely():
    path = require_data("ner", "conll2003", "eng.testb")
    instances = list(ConllTaggingReader().read(str(path)))
    assert len(instances) == 3453


def test_from_bioes_keeps_the_spans_in_each_label_encoding():
    bioes = ["B-PER", "I-PER", "E-PER", "O", "S-LOC", "S-LOC", "B-ORG", "E-ORG"]
    assert from_bioes(bioes, "BIOES") == bioes
    assert from_bioes(bioes, "BIOUL") == ["B-PER", "I-PER", "L-PER", "O", "U-LOC", "U-LOC", "B-ORG", "L-ORG"]
    assert from_bioes(bioes, "BIO") == ["B-PER", "I-PER", "I-PER", "O", "B-LOC", "B-LOC", "B-ORG", "I-ORG"]
    with pytest.raises(ValueError, match="label_encoding must be one of"):
        from_bioes(bioes, "IOB2")
    with pytest.raises(ValueError, match="label_encoding must be one of"):
        ConllTaggingReader(label_encoding="bioul")


@pytest.mark.parametrize("label_encoding", ["BIOUL", "BIO"])
def test_label_encodings_are_read_by_allennlps_span_f1(label_encoding):
    """allennlp's span F1 (what crf_tagger's calculate_span_f1 uses) recovers the file's spans from
    the reader's tags; BIOES, the default, is what it rejects."""
    import torch
    from allennlp.data import Vocabulary
    from allennlp.data.dataset_readers.dataset_utils.span_utils import InvalidTagSequence
    from allennlp.training.metrics import SpanBasedF1Measure

    path = str(DATA / "ner_conll2003_train.txt")
    default = list(ConllTaggingReader().read(path))
    instances = list(ConllTaggingReader(label_encoding=label_encoding).read(path))
    assert [i["tokens"].tokens for i in instances] == [i["tokens"].tokens for i in default]
    gold_spans = sum(len(bioes_to_spans(i["tags"].labels)) for i in default)

    def span_f1_of_gold_tags(batch, encoding):
        vocab = Vocabulary.from_instances(batch)
        metric = SpanBasedF1Measure(vocab, tag_namespace="labels", label_encoding=encoding)
        for instance in batch:
            ids = [vocab.get_token_index(tag, "labels") for tag in instance["tags"].labels]
            one_hot = torch.nn.functional.one_hot(torch.tensor([ids]), vocab.get_vocab_size("labels")).float()
            metric(one_hot, torch.tensor([ids]))
        return metric

    metric = span_f1_of_gold_tags(instances, label_encoding)
    assert sum(metric._true_positives.values()) == gold_spans > 0
    assert metric.get_metric()["f1-measure-overall"] == pytest.approx(1.0)
    with pytest.raises(InvalidTagSequence):
        span_f1_of_gold_tags(default, "BIOUL")
