import json

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Batch
from allennlp.models.archival import load_archive

from green_nlp.commands.green_label_teacher import label_corpus
from green_nlp.data.teacher_cache import TeacherCacheError, read_cache
from green_nlp.dataset_readers.ngram_text import NgramTextReader
from green_nlp.dataset_readers.text_classification import read_examples
from tests.dan_helpers import DAN_FIXTURES, tiny_dan_run

INPUTS = [str(DAN_FIXTURES / "sst2_train.tsv"), str(DAN_FIXTURES / "unlabeled.jsonl")]


@pytest.fixture(scope="module")
def teacher():
    return str(tiny_dan_run() / "model.tar.gz")


def test_cache_round_trip_gives_the_teacher_logits_in_student_order(teacher, tmp_path):
    cache = tmp_path / "kd.teacher.jsonl"
    assert label_corpus(teacher, INPUTS, str(cache), batch_size=7) == 70
    records = list(read_cache(str(cache)))
    assert [r.text for r in records[:2]] == ["its ending is a mess and lifeless", "the cast is beautifully made"]
    assert records[0].label == "0" and records[-1].label is None
    model = load_archive(teacher).model.eval()
    instances = list(NgramTextReader().read(cache))
    batch = Batch(instances)
    batch.index_instances(model.vocab)
    tensors = batch.as_tensor_dict()
    with torch.no_grad():
        live = model(ngrams=tensors["ngrams"])["logits"]
    assert torch.allclose(tensors["teacher_logits"], live, atol=1e-4)  # cached == the teacher run again


def test_interrupted_labeling_resumes_after_the_last_complete_record(teacher, tmp_path):
    full, partial = tmp_path / "full.jsonl", tmp_path / "partial.jsonl"
    label_corpus(teacher, INPUTS, str(full))
    lines = full.read_text().splitlines(keepends=True)
    partial.write_text("".join(lines[:30]) + lines[30][:12])  # a kill mid-write leaves a torn line
    assert len(list(read_cache(str(partial)))) == 29
    assert label_corpus(teacher, INPUTS, str(partial)) == 70
    assert partial.read_text() == full.read_text()


def test_shards_cover_the_corpus_once_and_a_changed_corpus_is_refused(teacher, tmp_path):
    texts = []
    for index in range(3):
        label_corpus(teacher, INPUTS, str(tmp_path / f"kd.{index}.teacher.jsonl"), shard=f"{index}/3")
        texts += [r.text for r in read_cache(str(tmp_path / f"kd.{index}.teacher.jsonl"))]
    everything = [
        r.text
        for r in read_cache(str(label_corpus(teacher, INPUTS, str(tmp_path / "all.jsonl")) and tmp_path / "all.jsonl"))
    ]
    assert sorted(texts) == sorted(everything)
    with pytest.raises(TeacherCacheError, match="different inputs"):
        label_corpus(teacher, INPUTS[:1], str(tmp_path / "all.jsonl"))
    header = json.loads((tmp_path / "kd.1.teacher.jsonl").read_text().splitlines()[0])
    assert header["shard"] == "1/3" and header["labels"] == ["0", "1"]


def test_max_examples_and_every_nth_subsample_each_input(teacher, tmp_path):
    cache = tmp_path / "small.jsonl"
    label_corpus(teacher, INPUTS, str(cache), max_per_input=3, every_nth=2)
    assert [r.source.rsplit(":", 1)[1] for r in read_cache(str(cache))] == ["2", "4", "6", "1", "3", "5"]
    rest = tmp_path / "rest.jsonl"
    label_corpus(teacher, INPUTS[:1], str(rest), skip_per_input=37)
    assert [r.source.rsplit(":", 1)[1] for r in read_cache(str(rest))] == ["39", "40", "41"]


def test_split_labels_only_the_training_part_and_names_it(teacher, tmp_path):
    cache = tmp_path / "train_part.jsonl"
    sst2 = INPUTS[:1]
    assert label_corpus(teacher, sst2, str(cache), split="train", dev_every=4) == 30
    kept = [e.text for index, e in enumerate(read_examples(sst2[0])) if (index + 1) % 4]
    assert [r.text for r in read_cache(str(cache))] == kept  # the dev part (every 4th) is left out
    header = json.loads(cache.read_text().splitlines()[0])
    assert (header["split"], header["dev_every"]) == ("train", 4)
    with pytest.raises(ConfigurationError, match="dev_every"):
        label_corpus(teacher, sst2, str(tmp_path / "bad.jsonl"), split="dev", dev_every=1)


def test_overrides_change_how_the_teacher_reads_and_are_kept_in_the_header(teacher, tmp_path):
    plain, unigrams = tmp_path / "plain.jsonl", tmp_path / "unigrams.jsonl"
    overrides = json.dumps({"validation_dataset_reader.ngram_range": [1, 1]})
    label_corpus(teacher, INPUTS, str(plain))
    label_corpus(teacher, INPUTS, str(unigrams), overrides=overrides)
    assert json.loads(unigrams.read_text().splitlines()[0])["overrides"] == json.loads(overrides)
    differ = [a.logits != b.logits for a, b in zip(read_cache(str(plain)), read_cache(str(unigrams)))]
    assert any(differ)  # the teacher read only unigrams
    with pytest.raises(TeacherCacheError, match="overrides"):  # resuming with other overrides is refused
        label_corpus(teacher, INPUTS, str(unigrams))
    # the same overrides written differently continue the cache
    assert label_corpus(teacher, INPUTS, str(unigrams), overrides=json.dumps(json.loads(overrides), indent=2)) == 70
    with pytest.raises(ConfigurationError, match="not JSON"):
        label_corpus(teacher, INPUTS, str(tmp_path / "bad.jsonl"), overrides="{ngram_range: 1")


def test_an_input_as_the_cache_is_refused_and_left_whole(teacher, tmp_path):
    """The cache's header was written over the input, then: "file contains no examples"."""
    source = tmp_path / "train.tsv"
    source.write_bytes((DAN_FIXTURES / "sst2_train.tsv").read_bytes())
    before = source.read_bytes()
    with pytest.raises(ConfigurationError, match=f"--output {source} is the input {source}: writing the cache"):
        label_corpus(teacher, [str(source)], str(source))
    assert source.read_bytes() == before
