import logging

import pytest

from green_nlp.dataset_readers.text_classification import (
    TextClassificationReader,
    TextFormatError,
    read_examples,
    split_heldout,
    subsample,
)
from tests.conftest import BAD_INPUTS, FIXTURES, require_data

DAN = FIXTURES / "dan"


def test_sst2_both_header_variants_are_skipped():
    train = list(read_examples(DAN / "sst2_train.tsv"))  # header "label<TAB>sentence"
    dev = list(read_examples(DAN / "sst2_dev.tsv"))  # header "label<TAB>content"
    assert len(train) == 40 and len(dev) == 12
    assert (train[0].label, train[0].text) == ("0", "its ending is a mess and lifeless")
    assert train[0].source.endswith("sst2_train.tsv:2")
    assert {e.label for e in train} == {"0", "1"}


def test_a_text_first_header_puts_the_text_first(tmp_path):
    # GLUE's SST-2 files: "sentence<TAB>label"; read label first, every sentence became a class
    glue = tmp_path / "glue_train.tsv"
    glue.write_text("sentence\tlabel\nhide new secretions \t0\ngood\t1\n", encoding="utf-8")
    examples = list(read_examples(glue))
    assert [(e.label, e.text) for e in examples] == [("0", "hide new secretions"), ("1", "good")]
    short = tmp_path / "glue_dev.tsv"
    short.write_text("sentence\tlabel\nno label here\n", encoding="utf-8")
    with pytest.raises(TextFormatError, match=r"glue_dev.tsv:2: expected 'text<TAB>label' \(2 columns\), found 1"):
        list(read_examples(short))


def test_swapped_columns_without_a_header_are_refused(tmp_path):
    swapped = tmp_path / "swapped.tsv"
    swapped.write_text("good\t1\nhide new secretions\t0\n", encoding="utf-8")
    with pytest.raises(TextFormatError, match=r"swapped.tsv:2: the label column holds several words .*look swapped"):
        list(read_examples(swapped))
    # a one-word text under a one-word label, or several words on both sides, is read as written
    fine = tmp_path / "fine.tsv"
    fine.write_text("1\tgood\nvery good\tquite a film\n", encoding="utf-8")
    assert [(e.label, e.text) for e in read_examples(fine)] == [("1", "good"), ("very good", "quite a film")]


@pytest.mark.parametrize(
    "name, content",
    [("empty.tsv", ""), ("header.tsv", "label\tsentence\n\n"), ("blank.jsonl", "\n\n"), ("texts.tsv", "1\t \n")],
)
def test_a_labeled_file_without_examples_is_refused(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(TextFormatError, match=rf"{name}:1: file contains no examples"):
        list(read_examples(path))
    # raw lines for prediction: an empty file is no input, not an error
    (tmp_path / "none.txt").write_text("", encoding="utf-8")
    assert list(read_examples(tmp_path / "none.txt", format="lines")) == []


def test_trec_is_latin1_with_coarse_or_fine_labels():
    coarse = list(read_examples(DAN / "trec_tiny.txt"))
    assert [e.label for e in coarse] == ["DESC", "HUM", "LOC", "NUM"]
    assert coarse[2].text == "What city is the Café Wha in ?"
    fine = list(read_examples(DAN / "trec_tiny.txt", fine_labels=True))
    assert [e.label for e in fine] == ["DESC:manner", "HUM:ind", "LOC:city", "NUM:date"]


def test_imdb_jsonl_gz_keeps_unlabeled_reviews_unlabeled():
    examples = list(read_examples(DAN / "imdb_tiny.jsonl.gz"))
    assert len(examples) == 9
    assert {e.label for e in examples[:8]} == {"pos", "neg"}
    assert examples[-1].label is None and examples[-1].text == "an unlabeled review"
    reader = TextClassificationReader(skip_unlabeled=True)
    assert len(list(reader.read(DAN / "imdb_tiny.jsonl.gz"))) == 8


def test_empty_text_lines_are_skipped_and_named(caplog):
    with caplog.at_level(logging.WARNING):
        examples = list(read_examples(BAD_INPUTS / "classifier_empty_lines.tsv"))
    assert [(e.label, e.text) for e in examples] == [("1", "a fine film"), ("0", "dull")]
    assert "classifier_empty_lines.tsv:4: empty text" in caplog.text
    assert "classifier_empty_lines.tsv:5: empty text" in caplog.text
    assert "skipped 2 examples with empty text" in caplog.text


def test_raw_lines_keep_every_line_for_prediction():
    examples = list(read_examples(DAN / "raw_text.txt", format="lines"))
    assert [e.text for e in examples] == [
        "the film is wonderful and charming",
        "",
        "this movie was awful , really tedious",
        "zzzz qqqq",
    ]
    assert all(e.label is None for e in examples)


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("three_columns.tsv", "label\tsentence\n1\tgood\textra\n", r"three_columns.tsv:2: expected 'label<TAB>text'"),
        ("no_label.tsv", "label\tsentence\n\tgood\n", r"no_label.tsv:2: empty label"),
        ("bad_trec.txt", "DESC:manner How ?\nwhat is this\n", r"bad_trec.txt:2: expected 'COARSE:fine question'"),
        ("bad.jsonl", '{"text": "ok", "label": "pos"}\n{"text": \n', r"bad.jsonl:2: not JSON"),
        ("no_text.jsonl", '{"review": "ok"}\n', r"no_text.jsonl:1: expected an object with a string 'text'"),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(TextFormatError, match=message):
        list(read_examples(path))


def test_invalid_utf8_names_its_line(tmp_path):
    path = tmp_path / "latin.tsv"
    path.write_bytes(b"label\tsentence\n1\tgood\n0\tcaf\xe9\n")
    with pytest.raises(TextFormatError, match=r"latin.tsv:3: not valid utf-8"):
        list(read_examples(path))


def test_unknown_extension_asks_for_a_format(tmp_path):
    with pytest.raises(TextFormatError, match="set format"):
        list(read_examples(tmp_path / "data.csv"))


def test_subsample_takes_every_nth_up_to_a_limit():
    examples = list(read_examples(DAN / "sst2_train.tsv"))
    picked = list(subsample(iter(examples), every=3, max_examples=4))
    assert picked == [examples[0], examples[3], examples[6], examples[9]]
    assert len(list(subsample(iter(examples), every=3))) == 14


def test_reader_gives_tokens_and_label():
    reader = TextClassificationReader(max_examples=2)
    instances = list(reader.read(DAN / "sst2_train.tsv"))
    assert len(instances) == 2
    assert [t.text for t in instances[0]["tokens"].tokens] == ["its", "ending", "is", "a", "mess", "and", "lifeless"]
    assert instances[0]["label"].label == "0"


def test_real_sst2_and_trec_files_read():
    sst2 = require_data("cls", "sst2")
    assert sum(1 for _ in read_examples(sst2 / "dev.tsv")) == 872
    trec = require_data("cls", "trec")
    assert len({e.label for e in read_examples(trec / "train.txt")}) == 6


def test_subsample_offsets_give_disjoint_samples():
    examples = list(read_examples(DAN / "sst2_train.tsv"))
    train = list(subsample(iter(examples), every=4))
    held_out = list(subsample(iter(examples), every=4, offset=2, max_examples=3))
    assert held_out == [examples[2], examples[6], examples[10]]
    assert not set(map(id, train)) & set(map(id, held_out))


@pytest.mark.parametrize("every, offset", [(0, 0), (3, 3), (3, -1)])
def test_bad_sample_settings_fail_when_the_reader_is_built(every, offset):
    with pytest.raises(ValueError, match="every|offset"):
        TextClassificationReader(sample_every=every, sample_offset=offset)


def test_heldout_split_parts_are_disjoint_and_cover_the_file():
    examples = list(read_examples(DAN / "sst2_train.tsv"))
    train = list(split_heldout(iter(examples), "train", dev_every=4))
    dev = list(split_heldout(iter(examples), "dev", dev_every=4))
    assert dev == examples[3::4] and len(dev) == 10 and len(train) == 30
    assert sorted(map(id, train + dev)) == sorted(map(id, examples))
    assert list(split_heldout(iter(examples), "all")) == examples


def test_reader_reads_the_heldout_part_before_sampling_and_other_files_whole():
    train = DAN / "sst2_train.tsv"
    reader = TextClassificationReader(split="dev", dev_every=4, sample_every=2, split_file=str(train))
    texts = [[t.text for t in i["tokens"].tokens] for i in reader.read(train)]
    assert texts == [e.text.split() for e in read_examples(train)][3::4][::2]
    # the validation reader also reads the test set: it must get all of it (sampling aside)
    other = [[t.text for t in i["tokens"].tokens] for i in reader.read(DAN / "sst2_dev.tsv")]
    assert other == [e.text.split() for e in read_examples(DAN / "sst2_dev.tsv")][::2]


def test_a_reader_split_without_its_file_is_refused():
    with pytest.raises(ValueError, match="split_file"):
        TextClassificationReader(split="dev")


@pytest.mark.parametrize("split, every", [("test", 10), ("dev", 1), ("train", 0)])
def test_bad_split_settings_fail_when_the_reader_is_built(split, every):
    with pytest.raises(ValueError, match="split|dev_every"):
        TextClassificationReader(split=split, dev_every=every, split_file="train.txt")


def test_split_counts_unlabeled_examples_too_so_every_tool_carves_the_same_part(tmp_path):
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(f'{{"text": "doc {i}", "label": {"null" if i % 3 == 0 else 1}}}\n' for i in range(20)))
    reader = TextClassificationReader(split="dev", dev_every=4, skip_unlabeled=True, split_file=str(mixed))
    texts = [" ".join(t.text for t in i["tokens"].tokens) for i in reader.read(mixed)]
    carved = [e for e in split_heldout(read_examples(mixed), "dev", 4) if e.label is not None]
    assert texts == [e.text for e in carved] == ["doc 7", "doc 11", "doc 19"]


# ------------------------------------------------------------------------------ label names
SST2_NAMES = {"0": "negative", "1": "positive"}


def test_label_names_name_the_labels_and_keep_named_ones():
    reader = TextClassificationReader(label_names=SST2_NAMES)
    labels = [instance["label"].label for instance in reader.read(DAN / "sst2_train.tsv")]
    raw = [example.label for example in read_examples(DAN / "sst2_train.tsv")]
    assert labels == [SST2_NAMES[label] for label in raw]
    assert reader.text_to_instance("a fine film", "positive")["label"].label == "positive"  # named already


def test_a_label_the_names_do_not_know_is_an_error_naming_file_and_line(tmp_path):
    path = tmp_path / "three_classes.tsv"
    path.write_text("label\tsentence\n1\tgood\n2\tneutral\n")
    with pytest.raises(TextFormatError, match=r"three_classes.tsv:3: label '2' is neither"):
        list(TextClassificationReader(label_names=SST2_NAMES).read(path))


@pytest.mark.parametrize(
    "names, message",
    [({"0": "bad", "1": "bad"}, "same name"), ({"0": "1", "1": "0"}, "raw labels"), ({"0": ""}, "non-empty")],
)
def test_unusable_label_names_are_refused_when_the_reader_is_built(names, message):
    with pytest.raises(ValueError, match=message):
        TextClassificationReader(label_names=names)
