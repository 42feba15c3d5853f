"""benchmarks.reports.model_cards on results laid out as benchmarks.parser.ewt and .distillation write them."""

import json

import pytest

from benchmarks.reports import model_cards
from tests.conftest import require_data

README = """| path | what | size | license |
|---|---|---|---|
| `ud/UD_English-EWT/en_ewt-ud-{train,dev,test}.conllu` | EWT | 18 MB | CC BY-SA 4.0 |
| `ud/UD_Tamil-TTB/ta_ttb-ud-*.conllu` | Tamil | 1.8 MB | CC BY-NC-SA 3.0 (research) |
"""


@pytest.fixture(scope="module")
def cards_module():
    return model_cards


def _row(uas, las, params, **extra):
    return {
        "uas": uas,
        "las": las,
        "params": params,
        "cpu_tokens_per_s": {"32": 1234.5},
        "epochs": 6,
        "epochs_configured": 100,
        "best_epoch": 5,
        "train_minutes": 31.5,
        **extra,
    }


def test_cards_for_both_parser_layouts(cards_module, tmp_path):
    (tmp_path / "README.md").write_text(README)
    licenses = cards_module.data_licenses(tmp_path / "README.md")
    results = tmp_path / "results"
    results.mkdir()
    (results / "parser_ewt.json").write_text(
        json.dumps(
            {
                "benchmark": "parser_ewt",
                "test_file": "UD_English-EWT/en_ewt-ud-test.conllu",
                "test_sentences": 2077,
                "test_tokens": 25094,
                "batch_size": 32,
                "hardware": "Some CPU, torch 2",
                "models": {
                    "green_nlp_gold_upos": _row(88.12, 85.34, 5_000_000, gold_upos=True, cpu_sentences_per_s=99.0),
                    "allennlp_models_biaffine": _row(87.0, 84.0, 5_100_000),
                },
            }
        )
    )
    (results / "parser_distillation.json").write_text(
        json.dumps(
            {
                "benchmark": "parser_distillation",
                "threads": 1,
                "hardware": "Some CPU",
                "gpu": None,
                "treebanks": {
                    "UD_Tamil-TTB": {
                        "test_sentences": 120,
                        "test_tokens": 2000,
                        "models": {
                            "full": _row(70.5, 60.25, 4_000_000, peer=False, param_fraction=1.0),
                            "D-20": _row(65.0, 55.0, 800_000, peer=False, param_fraction=0.2),
                            "D-20+int8": _row(
                                64.9,
                                54.8,
                                800_000,
                                peer=False,
                                int8_dynamic_quantization=True,
                                cpu_tokens_per_s={"32": 4321.0},
                            ),
                        },
                    }
                },
            }
        )
    )
    (results / "robustness.json").write_text(json.dumps({"cases": 3, "handled": 3, "details": []}))
    written = cards_module.write_cards(results, tmp_path / "cards", licenses)
    names = sorted(p.stem for p in written)
    assert names == ["parser_ewt_green_nlp_gold_upos", "parser_ud_tamil_ttb_d20", "parser_ud_tamil_ttb_full"]
    ewt = (tmp_path / "cards" / "parser_ewt_green_nlp_gold_upos.md").read_text()
    assert "| UAS | 88.12 |" in ewt and "CC BY-SA 4.0" in ewt and "1,234.50 (batch 32)" in ewt
    assert "training_configs/parser/ud_ewt.jsonnet" in ewt and "Some CPU, torch 2" in ewt
    d20 = (tmp_path / "cards" / "parser_ud_tamil_ttb_d20.md").read_text()
    assert "distilled from the teacher" in d20
    assert "TREEBANK=ud_tamil_ttb SIZE=20 DISTILLED=true SEED=1 training_configs/parser/student.jsonnet" in d20
    assert "4,321.00 (batch 32)" in d20 and "non-commercial research" in d20
    assert "parser_ud_tamil_ttb_d20.md" in (tmp_path / "cards" / "README.md").read_text()


def test_no_results_no_cards(cards_module, tmp_path):
    assert cards_module.write_cards(tmp_path, tmp_path / "cards", {}) == []
    assert not (tmp_path / "cards").exists()


def test_licenses_come_from_the_real_data_readme(cards_module):
    readme = require_data("README.md")
    licenses = cards_module.data_licenses(readme)
    assert cards_module.license_of("UD_English-EWT", licenses) == "CC BY-SA 4.0"


def test_cards_for_ldnet_and_dan_results(cards_module, tmp_path):
    licenses = {"ner/conll2003/eng.{train,testa,testb}": "research-only", "cls/sst2/{train,dev,test}.tsv": "research"}
    results = tmp_path / "results"
    results.mkdir()
    (results / "ldnet.json").write_text(
        json.dumps(
            {
                "setting": {"threads": 1, "hardware": "Some CPU"},
                "language_models": {"forward": {"validation_perplexity": 334.4, "epochs": 1}},
                "datasets": {
                    "conll2003": {
                        "test_file": "ner/conll2003/eng.testb",
                        "nolm": {"f1": 86.76, "params": 2_388_181, "cpu_words_per_s": 8962.8},
                        "pruned": {"f1": 86.79, "params": 4_736_699, "lm_layers": [1, 1]},
                        "pruned_ft": {"f1": 87.02, "params": 4_736_699, "lm_layers": [1, 1]},
                    }
                },
            }
        )
    )
    (results / "dan.json").write_text(
        json.dumps(
            {
                "hardware": "Some CPU",
                "settings": {"threads": 1, "batch_size": 32},
                "datasets": {
                    "sst2": {
                        "evaluation": {"test": "SST-2 test"},
                        "dan_kd": {"accuracy": 0.7871, "params": 40_041_002, "cpu_examples_per_s": 2971.5},
                        "fasttext_style_logreg": {"accuracy": 0.768},
                    }
                },
            }
        )
    )

    written = {p.stem: p.read_text() for p in cards_module.write_cards(results, tmp_path / "cards", licenses)}

    assert set(written) == {
        "ldnet_lm_forward",
        "ldnet_conll2003_nolm",
        "ldnet_conll2003_pruned",
        "ldnet_conll2003_pruned_ft",
        "dan_sst2_dan_kd",
    }
    assert "| span F1 (test) | 86.79 |" in written["ldnet_conll2003_pruned"]
    assert "`TASK=ner STAGE=prune training_configs/ldnet/tagger.jsonnet`" in written["ldnet_conll2003_pruned"]
    assert "`TASK=ner STAGE=finetune training_configs/ldnet/tagger.jsonnet`" in written["ldnet_conll2003_pruned_ft"]
    assert "License: research-only" in written["ldnet_conll2003_nolm"]
    assert "| accuracy % (test) | 78.71 |" in written["dan_sst2_dan_kd"]
    assert "Classes: `negative` (`0` in the data), `positive` (`1` in the data)" in written["dan_sst2_dan_kd"]
    assert "`DATASET=sst2 STAGE=kd training_configs/dan/student.jsonnet`" in written["dan_sst2_dan_kd"]
    assert "| validation perplexity | 334.40 |" in written["ldnet_lm_forward"]
