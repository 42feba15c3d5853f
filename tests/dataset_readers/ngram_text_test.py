import json

import pytest
import torch
from allennlp.data import Batch
from allennlp.models.archival import load_archive

from green_nlp.commands.green_label_teacher import label_corpus
from green_nlp.data.ngram_vocabulary import NgramVocabulary
from green_nlp.data.teacher_cache import TeacherCacheError, read_cache, read_header
from green_nlp.dataset_readers.ngram_text import NgramTextReader
from tests.dan_helpers import DAN_FIXTURES, TEACHER_CACHE, sst2_label_names, tiny_named_dan_run


def test_plain_file_gives_ngrams_and_label():
    instances = list(NgramTextReader(ngram_range=(1, 2)).read(DAN_FIXTURES / "sst2_train.tsv"))
    assert len(instances) == 40
    first = instances[0]
    assert set(first.fields) == {"ngrams", "label"}
    # "its ending is a mess and lifeless": CountVectorizer drops "a" before forming n-grams
    assert first["ngrams"].ngrams() == [
        "its",
        "ending",
        "is",
        "mess",
        "and",
        "lifeless",
        "its ending",
        "ending is",
        "is mess",
        "mess and",
        "and lifeless",
    ]
    assert first["label"].label == "0"


def test_cache_gives_teacher_logits_without_gold_labels_by_default():
    reader = NgramTextReader()
    instances = list(reader.read(TEACHER_CACHE))
    records = list(read_cache(str(TEACHER_CACHE)))
    assert len(instances) == len(records) == 70
    assert set(instances[0].fields) == {"ngrams", "teacher_logits"}
    assert instances[0]["teacher_logits"].logits == records[0].logits
    vocab = NgramVocabulary.from_ngram_corpus(instances=instances, max_features=200)
    assert vocab.get_vocab_size("labels") == 2  # labels come from the teacher even without gold ones
    batch = Batch(instances[:4])
    batch.index_instances(vocab)
    tensors = batch.as_tensor_dict()
    assert tensors["teacher_logits"].shape == (4, 2)
    assert tensors["ngrams"].shape[0] == 4


def test_gold_labels_from_a_cache_must_be_present(tmp_path):
    with_labels = list(NgramTextReader(use_gold_labels=True, max_examples=40).read(TEACHER_CACHE))
    assert all("label" in instance.fields for instance in with_labels)
    with pytest.raises(TeacherCacheError, match=r"unlabeled.jsonl:1: no gold label"):
        list(NgramTextReader(use_gold_labels=True).read(TEACHER_CACHE))


def test_glob_reads_shards_in_order(tmp_path):
    lines = TEACHER_CACHE.read_text().splitlines(keepends=True)
    (tmp_path / "c.0.teacher.jsonl").write_text("".join(lines[:11]))
    (tmp_path / "c.1.teacher.jsonl").write_text(lines[0] + "".join(lines[11:21]))
    texts = [i["ngrams"].text for i in NgramTextReader().read(str(tmp_path / "c.*.teacher.jsonl"))]
    assert texts == [json.loads(line)["text"] for line in lines[1:21]]
    with pytest.raises(FileNotFoundError, match="no file matches"):
        list(NgramTextReader().read(str(tmp_path / "none.*.jsonl")))


def test_malformed_cache_record_names_its_line(tmp_path):
    lines = TEACHER_CACHE.read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.teacher.jsonl"
    bad.write_text(lines[0] + lines[1] + '{"text": "x", "logits": [1.0]}\n')
    with pytest.raises(TeacherCacheError, match=r"bad.teacher.jsonl:3: 1 logits, the header names 2 labels"):
        list(NgramTextReader().read(bad))


@pytest.mark.parametrize(
    "record, why",
    [
        ('{"text": "x", "logits": [' + "9" * 5000 + ", 1.0]}", "Exceeds the limit"),
        ('{"text": "x", "logits": ' + "[" * 100_000 + "]" * 100_000 + "}", "JSON nested too deeply"),
    ],
)
def test_a_cache_record_python_cannot_read_names_its_line(tmp_path, record, why):
    lines = TEACHER_CACHE.read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.teacher.jsonl"
    bad.write_text(lines[0] + record + "\n")
    with pytest.raises(TeacherCacheError, match=rf"bad.teacher.jsonl:2: malformed record \(.*{why}"):
        list(NgramTextReader().read(bad))


def test_a_first_line_python_cannot_read_is_no_cache_header(tmp_path):
    for name, first in (("digits.jsonl", b'{"n": ' + b"9" * 5000 + b"}"), ("latin.jsonl", b'{"text": "caf\xe9"}')):
        path = tmp_path / name
        path.write_bytes(first + b"\n")
        assert read_header(str(path)) is None  # the file's reader names the line's problem instead


def test_two_offsets_of_one_file_give_disjoint_training_and_validation_samples():
    everything = [instance["ngrams"].ngrams() for instance in NgramTextReader().read(DAN_FIXTURES / "sst2_train.tsv")]
    train = [i["ngrams"].ngrams() for i in NgramTextReader(sample_every=4).read(DAN_FIXTURES / "sst2_train.tsv")]
    held_out = [
        i["ngrams"].ngrams()
        for i in NgramTextReader(sample_every=4, sample_offset=1).read(DAN_FIXTURES / "sst2_train.tsv")
    ]
    assert train == everything[0::4] and held_out == everything[1::4]
    assert len(train) + len(held_out) == 20


def test_train_and_dev_parts_of_one_file_and_the_test_file_whole():
    train_file, test_file = DAN_FIXTURES / "sst2_train.tsv", DAN_FIXTURES / "sst2_dev.tsv"
    part = {
        split: [
            i["ngrams"].text
            for i in NgramTextReader(split=split, dev_every=5, split_file=str(train_file)).read(train_file)
        ]
        for split in ("train", "dev")
    }
    assert (len(part["train"]), len(part["dev"])) == (32, 8)
    assert len(list(NgramTextReader(split="dev", dev_every=5, split_file=str(train_file)).read(test_file))) == 12


# ------------------------------------------------------------------------------ label names
SST2_NAMES = {"0": "negative", "1": "positive"}


def _named_cache(tmp_path, **header_changes):
    """The fixture cache with its header changed (a teacher that named its labels, another data set...)."""
    lines = TEACHER_CACHE.read_text().splitlines(keepends=True)
    header = {**json.loads(lines[0]), **header_changes}
    path = tmp_path / "named.teacher.jsonl"
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    return path


def test_plain_files_and_raw_label_caches_get_the_names():
    reader = NgramTextReader(label_names=SST2_NAMES, use_gold_labels=True, max_examples=40)
    assert {i["label"].label for i in reader.read(DAN_FIXTURES / "sst2_dev.tsv")} == {"negative", "positive"}
    instances = list(reader.read(TEACHER_CACHE))  # written with the teacher's raw labels "0"/"1"
    records = list(read_cache(str(TEACHER_CACHE)))[:40]
    assert [i["label"].label for i in instances] == [SST2_NAMES[r.label] for r in records]
    assert instances[0]["teacher_logits"].labels == ["negative", "positive"]
    vocab = NgramVocabulary.from_ngram_corpus(instances=instances, max_features=200)
    assert vocab.get_token_to_index_vocabulary("labels").keys() == {"negative", "positive"}
    batch = Batch(instances[:3])
    batch.index_instances(vocab)
    negative = vocab.get_token_index("negative", "labels")
    assert batch.as_tensor_dict()["teacher_logits"][:, negative].tolist() == pytest.approx(
        [r.logits[0] for r in records[:3]], abs=1e-6
    )  # the teacher's "0" logit is the student's "negative"


def test_a_cache_named_like_the_student_is_read_and_any_other_naming_is_refused(tmp_path):
    named = _named_cache(tmp_path, labels=["negative", "positive"], label_names=SST2_NAMES)
    assert next(iter(NgramTextReader(label_names=SST2_NAMES).read(named)))["teacher_logits"].labels == [
        "negative",
        "positive",
    ]
    with pytest.raises(TeacherCacheError, match="give the student's readers the teacher's label_names"):
        list(NgramTextReader().read(named))  # the student's dev labels would stay "0"/"1"
    with pytest.raises(TeacherCacheError, match="teacher named its labels"):
        list(NgramTextReader(label_names={"0": "positive", "1": "negative"}).read(named))  # swapped classes
    imdb = _named_cache(tmp_path, labels=["neg", "pos"])
    with pytest.raises(TeacherCacheError, match=r"named.teacher.jsonl:1: the teacher's labels \['neg', 'pos'\]"):
        list(NgramTextReader(label_names=SST2_NAMES).read(imdb))


def test_a_gold_label_the_teacher_does_not_have_is_refused(tmp_path):
    imdb_named = _named_cache(tmp_path, labels=["neg", "pos"])  # its gold labels stay "0"/"1"
    with pytest.raises(TeacherCacheError, match=r"sst2_train.tsv:2: gold label '0' is not one of the teacher's"):
        list(NgramTextReader(use_gold_labels=True).read(imdb_named))


def test_a_named_teacher_and_a_named_student_agree_on_every_logit(tmp_path):
    """Teacher and student both trained with SST-2's names: the cache records the teacher's naming,
    and the student's logits targets are the teacher's own, class by class."""
    names = sst2_label_names()
    teacher = load_archive(str(tiny_named_dan_run() / "model.tar.gz")).model.eval()
    cache = tmp_path / "kd.teacher.jsonl"
    label_corpus(str(tiny_named_dan_run() / "model.tar.gz"), [str(DAN_FIXTURES / "sst2_train.tsv")], str(cache))
    header = json.loads(cache.read_text().splitlines()[0])
    assert header["labels"] == ["negative", "positive"] and header["label_names"] == names
    instances = list(NgramTextReader(label_names=names, use_gold_labels=True).read(cache))
    batch = Batch(instances)
    batch.index_instances(teacher.vocab)
    tensors = batch.as_tensor_dict()
    with torch.no_grad():
        live = teacher(ngrams=tensors["ngrams"])["logits"]
    assert torch.allclose(tensors["teacher_logits"], live, atol=1e-4)
    assert {teacher.vocab.get_token_from_index(int(i), "labels") for i in tensors["label"]} == {"negative", "positive"}
    with pytest.raises(TeacherCacheError, match="teacher's label_names"):
        list(NgramTextReader().read(cache))
