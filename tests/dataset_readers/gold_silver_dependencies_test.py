"""The gold + silver reader's cache settings: glob patterns (labelling shards), the teacher's
fingerprint file in place of its archive, and silver sentences beside the full-UD heads' columns."""

import json
from pathlib import Path

import numpy as np
import pytest
from allennlp.common.checks import ConfigurationError
from allennlp.data import Batch, Vocabulary

from green_nlp.data.teacher_cache import TeacherCacheError, encode_top
from green_nlp.dataset_readers.gold_silver_dependencies import NO_GOLD, GoldSilverDependenciesReader
from tests.conftest import FIXTURES

TREEBANK = str(FIXTURES / "ud" / "synthetic-tiny.conllu")
GOLD_SENTENCES = 12
SHA = "a" * 64
DEPRELS = ["root", "det", "nsubj"]
UPOS = ["DET", "NOUN", "VERB"]


def write_cache(path: Path, sentences: list[list[str]], sha: str = SHA) -> None:
    """A parser cache by hand: each sentence's words hang off the first word, top-1 everything."""
    header = {
        "teacher_cache": 2,
        "kind": "parser",
        "teacher_sha256": sha,
        "deprels": DEPRELS,
        "upos": UPOS,
        "top_k_heads": 1,
        "top_k_labels": 1,
    }
    lines = [json.dumps(header)]
    for number, words in enumerate(sentences):
        n = len(words)
        heads = [0] + [1] * (n - 1)
        labels = [0] + [1] * (n - 1)
        ones = np.ones((n, 1), dtype=np.float32)
        top = encode_top(
            np.array(heads).reshape(n, 1),
            ones,
            np.array(labels).reshape(n, 1, 1),
            ones.reshape(n, 1, 1),
            np.ones((n, 1), dtype=np.int64),
            ones,
        )
        record = {"words": words, "source": f"{path.name}:{number + 2}#0", "heads": heads, "labels": labels}
        lines.append(json.dumps({**record, "upos": [1] * n, "top": top, "cut": [0.0, 0.0]}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def shards(tmp_path: Path) -> Path:
    write_cache(tmp_path / "imdb.shard1.jsonl", [["third", "one"]])
    write_cache(tmp_path / "imdb.shard0.jsonl", [["first", "one"], ["second", "one", "here"]])
    return tmp_path


def silver_words(reader: GoldSilverDependenciesReader) -> list[list[str]]:
    return [
        instance["metadata"].metadata["words"]  # type: ignore[attr-defined]
        for instance in reader.read(TREEBANK)
        if "source" in instance["metadata"].metadata  # type: ignore[attr-defined]
    ]


def test_a_glob_pattern_reads_the_shards_in_sorted_order(shards: Path) -> None:
    reader = GoldSilverDependenciesReader(silver_caches=[str(shards / "imdb.shard*.jsonl")], silver_sentences=3)
    assert silver_words(reader) == [["first", "one"], ["second", "one", "here"], ["third", "one"]]


def test_a_pattern_that_matches_nothing_is_an_error(shards: Path) -> None:
    reader = GoldSilverDependenciesReader(silver_caches=[str(shards / "other*.jsonl")], silver_sentences=1)
    with pytest.raises(TeacherCacheError, match="matches no file"):
        list(reader.read(TREEBANK))


def test_the_fingerprint_file_stands_for_the_teacher_archive(shards: Path) -> None:
    caches = [str(shards / "imdb.shard0.jsonl")]
    same = shards / "same.sha256"
    same.write_text(f"{SHA.upper()}  model.tar.gz\n")
    reader = GoldSilverDependenciesReader(silver_caches=caches, silver_sentences=2, teacher_fingerprint=str(same))
    assert len(silver_words(reader)) == 2
    other = shards / "other.sha256"
    other.write_text("b" * 64 + "  model.tar.gz\n")
    reader = GoldSilverDependenciesReader(silver_caches=caches, silver_sentences=2, teacher_fingerprint=str(other))
    with pytest.raises(TeacherCacheError, match="another teacher"):
        list(reader.read(TREEBANK))


@pytest.mark.parametrize("content", ["", "not-a-sha256  model.tar.gz\n"])
def test_a_fingerprint_file_without_a_sha256_is_refused(shards: Path, content: str) -> None:
    bad = shards / "bad.sha256"
    bad.write_text(content)
    reader = GoldSilverDependenciesReader(
        silver_caches=[str(shards / "imdb.shard0.jsonl")], silver_sentences=1, teacher_fingerprint=str(bad)
    )
    with pytest.raises(ConfigurationError, match="holds no sha256"):
        list(reader.read(TREEBANK))


def test_archive_and_fingerprint_together_are_refused(shards: Path) -> None:
    with pytest.raises(ConfigurationError, match="not both"):
        GoldSilverDependenciesReader(teacher_archive="model.tar.gz", teacher_fingerprint="model.tar.gz.sha256")


def test_silver_sentences_carry_no_gold_for_the_ud_heads(shards: Path) -> None:
    reader = GoldSilverDependenciesReader(
        silver_caches=[str(shards / "imdb.shard0.jsonl")],
        silver_sentences=2,
        read_columns=["lemmas", "feats", "xpos"],
    )
    instances = list(reader.read(TREEBANK))
    assert len(instances) == GOLD_SENTENCES + 2
    vocab = Vocabulary.from_instances(instances)
    # silver words count towards no tag vocabulary: the namespaces hold the gold file's tags only
    gold_only = Vocabulary.from_instances(
        [i for i in instances if "source" not in i["metadata"].metadata]  # type: ignore[attr-defined]
    )
    for namespace in ("lemma_rule_labels", "feats_labels", "xpos_labels"):
        assert vocab.get_token_to_index_vocabulary(namespace) == gold_only.get_token_to_index_vocabulary(namespace)
    batch = Batch(instances)  # gold and silver share a batch: the same fields everywhere
    batch.index_instances(vocab)
    tensors = batch.as_tensor_dict()
    lengths = [len(i["words"]) for i in instances]  # type: ignore[arg-type]
    for row, instance in enumerate(instances):
        is_silver = "source" in instance["metadata"].metadata  # type: ignore[attr-defined]
        for field in ("lemma_rules", "feats", "xpos"):
            values = tensors[field][row, : lengths[row]].tolist()
            if is_silver:
                assert values == [NO_GOLD] * lengths[row]
            else:
                assert min(values) >= 0
