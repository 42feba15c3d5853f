"""experiments/parser/transfer_set.py: PTB-tagged text turned into parser input with UD UPOS."""

import json
import shutil

from experiments.parser import transfer_set as parser_transfer_set
from green_nlp.dataset_readers.conll_tagging import read_columns
from tests.conftest import FIXTURES

CHUNKING = FIXTURES / "ldnet" / "data" / "chunking_train.txt"


def test_the_transfer_set_keeps_every_sentence_and_reports_the_mapping(tmp_path, monkeypatch):
    treebank = tmp_path / "data" / "ud" / "UD_English-EWT"
    treebank.mkdir(parents=True)
    shutil.copy(FIXTURES / "ud" / "synthetic-train.conllu", treebank / "en_ewt-ud-train.conllu")
    shutil.copy(FIXTURES / "ud" / "synthetic-dev.conllu", treebank / "en_ewt-ud-dev.conllu")
    (tmp_path / "data" / "chunk").mkdir()
    shutil.copy(CHUNKING, tmp_path / "data" / "chunk" / "train.txt")
    output, results = tmp_path / "transfer.jsonl", tmp_path / "results"
    monkeypatch.setattr(
        "sys.argv",
        [
            "parser_transfer_set.py",
            "--data",
            str(tmp_path / "data"),
            "--tagged-text",
            "chunk/train.txt",
            "--output",
            str(output),
            "--results",
            str(results),
        ],
    )
    parser_transfer_set.main()

    sentences = list(read_columns(str(CHUNKING)))
    records = [json.loads(line) for line in output.read_text().splitlines()]
    assert [record["words"] for record in records] == [[row[0] for row in rows] for rows, _ in sentences]
    assert all(len(record["upos"]) == len(record["words"]) for record in records)
    # the fixture tags every word NN, which the synthetic treebank always labels NOUN
    assert {tag for record in records for tag in record["upos"]} == {"NOUN"}
    row = json.loads((results / "parser_transfer_set.json").read_text())["transfer_set"]
    assert row["sentences"] == len(sentences) and row["skipped_long"] == 0
    assert row["upos_from_xpos_dev_accuracy"] == 100.0
    assert "| chunk/train.txt |" in (results / "parser_transfer_set.md").read_text()
