"""A warning about a gold tag the model never saw shows the tag as the file writes it too (issue 44:
it named `S-product`, the reader's BIOES form, where the file said `B-product`)."""

import logging

from allennlp.data import Vocabulary

from green_nlp.data import gold_label_field
from green_nlp.dataset_readers.conll_tagging import ConllTaggingReader


def _warnings(tmp_path, caplog, monkeypatch, text, encoding):
    path = tmp_path / "ner.txt"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(gold_label_field, "_warned", set())  # one warning per label and process
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["O", "B-person", "E-person", "S-person"], "labels")
    with caplog.at_level(logging.WARNING, logger=gold_label_field.__name__):
        for instance in ConllTaggingReader(encoding=encoding).read(str(path)):
            instance.index_fields(vocab)
    return caplog.text


def test_an_unseen_converted_tag_names_the_file_s_own_tag(tmp_path, caplog, monkeypatch):
    text = "Acme\tB-product\nsells\tO\nAda\tB-person\nLovelace\tI-person\n"
    log = _warnings(tmp_path, caplog, monkeypatch, text, "BIO")
    assert "gold label 'S-product' (first at " in log
    assert "ner.txt:1, where the file says 'B-product')" in log
    assert "person" not in log  # known tags: no warning


def test_a_tag_the_conversion_keeps_is_named_alone(tmp_path, caplog, monkeypatch):
    log = _warnings(tmp_path, caplog, monkeypatch, "Acme\tB-gadget\nWidget\tI-gadget\n", "BIO")
    assert "gold label 'B-gadget' (first at " in log and "ner.txt:1) is not among" in log  # B- stays B-
    assert "ner.txt:2, where the file says 'I-gadget')" in log  # the span's last I- is read as E-gadget
