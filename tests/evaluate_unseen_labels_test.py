"""`allennlp evaluate` on gold labels the model never saw (issue 34): the tagger and the classifier
count them as errors and warn once per label with its `file:line`, as the parser does for relations.

The exact expectations come from a control file: the same words with labels the model knows give
the same predictions, so the unseen labels' effect on the metrics can be computed exactly.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Batch, Vocabulary
from allennlp.models.archival import load_archive

from green_nlp.data.gold_label_field import UNSEEN_LABEL
from green_nlp.dataset_readers.conll_tagging import ConllTaggingReader, bioes_to_spans, read_columns, to_bioes
from green_nlp.dataset_readers.ngram_text import NgramTextReader
from tests.conftest import FIXTURES, REPO_ROOT
from tests.dan_helpers import tiny_dan_run

TAGGER = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"  # CoNLL-03 types; no I- tag (no 3-word span)
NER_TEST = FIXTURES / "ldnet" / "data" / "ner_conll2003_test.txt"
SST2_DEV = FIXTURES / "dan" / "sst2_dev.tsv"

# Two sentences appended to the test file: a three-word PER name (BIOES I-PER: the model has no such
# tag, so it can never predict this span) and an entity type the model never saw, twice.
EXTRA_WORDS = [["Angela", "Dorothea", "Merkel", "visited", "Wakanda", "."], ["Wakanda", "won", "."]]
EXTRA_TAGS = [["I-PER", "I-PER", "I-PER", "O", "I-FICTION", "O"], ["I-FICTION", "O", "O"]]


def _evaluate(archive: Path, data_file: Path, cwd: Path) -> tuple[dict[str, float], str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    metrics_file = cwd / f"{data_file.stem}.metrics.json"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "evaluate",
            str(archive),
            data_file.name,
            "--output-file",
            str(metrics_file),
            "--include-package",
            "green_nlp",
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(metrics_file.read_text()), result.stderr


def _with_sentences(path: Path, tags: list[list[str]]) -> tuple[str, list[int]]:
    """The test file with EXTRA_WORDS appended under `tags`; also each appended row's line number."""
    text = NER_TEST.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    first = text.count("\n") + 1
    numbers, number = [], first
    for words, sentence_tags in zip(EXTRA_WORDS, tags):
        for word, tag in zip(words, sentence_tags):
            text += f"{word} NNP I-NP {tag}\n"
            numbers.append(number)
            number += 1
        text += "\n"
        number += 1
    path.write_text(text, encoding="utf-8")
    return str(path), numbers


def _gold_spans(path: Path) -> int:
    return sum(
        len(bioes_to_spans(to_bioes([row[-1] for row in rows], "IOB1", where)))
        for rows, where in read_columns(str(path))
    )


def test_tagger_counts_unseen_tags_as_missed_spans(tmp_path):
    control = tmp_path / "control.txt"
    _with_sentences(control, [["O"] * len(words) for words in EXTRA_WORDS])
    unseen = tmp_path / "unseen.txt"
    _, numbers = _with_sentences(unseen, EXTRA_TAGS)
    gold = _gold_spans(control)
    assert _gold_spans(unseen) == gold + 3

    before, _ = _evaluate(TAGGER, control, tmp_path)
    after, log = _evaluate(TAGGER, unseen, tmp_path)
    assert before["recall-overall"] > 0  # else the check below proves nothing
    # the same predictions (same words), three more gold spans, none of which can be predicted
    assert after["precision-overall"] == pytest.approx(before["precision-overall"])
    assert after["recall-overall"] == pytest.approx(before["recall-overall"] * gold / (gold + 3))
    assert after["loss"] == after["loss"]  # not NaN
    # one warning per unseen tag, naming where it was first met (S-FICTION occurs twice)
    assert log.count("gold label 'S-FICTION'") == 1 and log.count("gold label 'I-PER'") == 1
    assert f"'I-PER' (first at unseen.txt:{numbers[1]})" in log
    assert f"'S-FICTION' (first at unseen.txt:{numbers[4]}, where the file says 'I-FICTION')" in log
    assert "KeyError" not in log and "Traceback" not in log


def test_classifier_counts_an_unseen_class_as_wrong(tmp_path):
    archive = tiny_dan_run() / "model.tar.gz"
    original = SST2_DEV.read_text(encoding="utf-8")
    examples = len(original.strip().splitlines()) - 1  # the header
    unseen = tmp_path / "unseen.tsv"
    unseen.write_text(original.rstrip("\n") + "\n2\tthe film is great\n2\ta boring film\n", encoding="utf-8")
    dev = tmp_path / "dev.tsv"
    dev.write_text(original, encoding="utf-8")

    before, _ = _evaluate(archive, dev, tmp_path)
    after, log = _evaluate(archive, unseen, tmp_path)
    assert before["accuracy"] > 0
    assert after["accuracy"] == pytest.approx(before["accuracy"] * examples / (examples + 2))
    assert after["loss"] == after["loss"]
    assert log.count("gold label '2'") == 1 and f"'2' (first at unseen.tsv:{examples + 2})" in log
    assert "KeyError" not in log and "Traceback" not in log


# ------------------------------------------------------------------- training stays strict
def test_vocabulary_creation_still_adds_every_gold_label():
    tagger = ConllTaggingReader().text_to_instance(["Wakanda", "won"], ["S-FICTION", "O"])
    classifier = NgramTextReader().text_to_instance("a new class", "2", source="x.tsv:3")
    vocab = Vocabulary.from_instances([tagger, classifier])
    assert "S-FICTION" in vocab.get_token_to_index_vocabulary("labels")
    assert "2" in vocab.get_token_to_index_vocabulary("labels")


def test_training_on_a_label_the_vocabulary_lacks_is_a_clear_error():
    model = load_archive(str(TAGGER)).model
    reader = ConllTaggingReader(token_indexers=load_archive(str(TAGGER)).dataset_reader._token_indexers)
    instance = reader.text_to_instance(["Wakanda", "won"], ["S-FICTION", "O"], ["f.txt:1", "f.txt:2"])
    batch = Batch([instance])
    batch.index_instances(model.vocab)
    tensors = batch.as_tensor_dict()
    assert tensors["tags"][0, 0].item() == UNSEEN_LABEL
    model.eval()
    assert torch.isfinite(model(**tensors)["loss"])  # evaluation: scored, left out of the loss
    model.train()
    with pytest.raises(ConfigurationError, match="not in the model's vocabulary"):
        model(**tensors)

    dan = load_archive(str(tiny_dan_run() / "model.tar.gz")).model
    ngrams = torch.tensor([[2, 3], [4, 0]])
    dan.eval()
    assert torch.isfinite(dan(ngrams, label=torch.tensor([UNSEEN_LABEL, 0]))["loss"])
    dan.train()
    with pytest.raises(ConfigurationError, match="not in the model's vocabulary"):
        dan(ngrams, label=torch.tensor([UNSEEN_LABEL, 0]))
