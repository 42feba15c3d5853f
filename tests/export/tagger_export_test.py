"""`green_nlp.export.tagger`: the LD-Net tagger's ONNX folder gives the AllenNLP predictor's answers.

Every committed fixture tagger, a pruned one and two NoLM variants are exported; the runtime's fp32
tags (and words, sentence starts, spans) must equal the `green_sentence_tagger` predictor's on
every fixture sentence, as raw text and pre-tokenized.
"""

import json
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime
import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.modules.conditional_random_field import allowed_transitions
from allennlp.predictors import Predictor

from green_nlp.runtime import load
from tests.conftest import REPO_ROOT
from tests.export.tagger_models import (
    NAMES,
    fixture_sentences,
    tagger_archive,
    tagger_folder,
)

PICKLE_MAGIC = b"\x80"
EXTRA_LINES = [
    "Angela Merkel visited Paris on Monday. Shares in BMW rose 5 percent.",
    "  Jones   works for  Reuters in London .  ",
    "Zoë Ünal flew to São Paulo — via Zürich!",  # characters the vocabulary never saw
    "x",
]


def _lines(name):
    return [" ".join(words) for words in fixture_sentences(name)] + EXTRA_LINES


def _predictor(name):
    return Predictor.from_path(str(tagger_archive(name)), "green_sentence_tagger")


@pytest.mark.parametrize("name", NAMES)
def test_runtime_equals_the_predictor_on_every_fixture_line(name):
    lines = _lines(name)
    expected = _predictor(name).predict_batch_json([{"sentence": line} for line in lines])
    got = [result.to_json() for result in load(tagger_folder(name), precision="fp32").tag_many(lines, batch_size=7)]
    assert got == expected
    assert sum(len(record["tags"]) for record in got) > 50 and any(record["spans"] for record in got)


def test_a_line_without_words_fails_alone_in_the_runtime():
    """The runtime gives an error in its place and tags the lines around it (issue 44: an empty text
    is not counted as tagged), as the predictor does."""
    results = list(load(tagger_folder("origin"), precision="fp32").tag_many(["Jones works .", "", "x"]))
    assert [r.error is None for r in results] == [True, False, True]
    assert "texts[1] is empty" in str(results[1].error)
    expected = _predictor("origin").predict_batch_json([{"sentence": text} for text in ["Jones works .", "", "x"]])
    assert [record.get("error") is None for record in expected] == [True, False, True]


@pytest.mark.parametrize("name", ["origin", "pruned", "nolm_cnn"])
def test_runtime_equals_the_predictor_on_pre_tokenized_sentences(name):
    predictor, nlp = _predictor(name), load(tagger_folder(name), precision="fp32")
    for words in fixture_sentences(name)[:12]:
        assert nlp.tag_tokens(words).to_json() == predictor.predict_json({"words": words})


@pytest.mark.parametrize("name", ["origin", "pruned", "nolm_cnn", "nolm_lstm"])
def test_the_graph_gives_the_models_tag_scores(name):
    """The logits themselves, padding included in the batch: the graph is the model's `_score`."""
    model = load_archive(str(tagger_archive(name))).model.eval()
    nlp = load(tagger_folder(name), precision="fp32")
    sentences = sorted(fixture_sentences(name)[:9], key=len) + [["Zoë", "!"]]
    feed = nlp._feed(sentences)
    logits = nlp.session.run(["logits"], feed)[0]
    tokens = {
        "tokens": {"tokens": torch.from_numpy(feed["word_ids"])},
        "token_characters": {"token_characters": torch.from_numpy(feed["char_ids"])},
    }
    if "lm_ids" in feed:
        tokens["ldnet_lm"] = {"tokens": torch.from_numpy(feed["lm_ids"])}
    mask = torch.from_numpy(feed["word_ids"] != 0)
    with torch.no_grad():
        expected = model._score(tokens, mask).numpy()
    live = feed["word_ids"] != 0
    np.testing.assert_allclose(logits[live], expected[live], atol=2e-5)


def test_the_folder_holds_onnx_and_json_only_and_the_crf(tmp_path):
    folder = tagger_folder("origin")
    assert sorted(path.name for path in folder.iterdir()) == ["green_model.json", "model.int8.onnx", "model.onnx"]
    for path in folder.iterdir():
        head = path.read_bytes()[:2]
        assert not head.startswith(PICKLE_MAGIC) and head != b"PK", path.name
    proto = onnx.load(str(folder / "model.onnx"))
    assert proto.opset_import[0].version == 17
    assert [i.name for i in proto.graph.input] == ["word_ids", "char_ids", "lm_ids"]
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    model = load_archive(str(tagger_archive("origin"))).model
    labels = [model.vocab.get_token_from_index(i, "labels") for i in range(model.vocab.get_vocab_size("labels"))]
    assert meta["family"] == "tagger" and meta["model_type"] == "green_ldnet_tagger" and meta["labels"] == labels
    assert meta["tokenizer"] == {"type": "spacy_blank", "language": "en", "sentencizer": True}
    assert len(meta["source_archive_sha256"]) == 64
    assert [lm["direction"] for lm in meta["language_models"]] == ["forward", "backward"]
    crf = meta["crf"]
    assert np.array_equal(np.asarray(crf["transitions"], dtype=np.float32), model.crf.transitions.detach().numpy())
    # the constraints are BIOES's (allennlp's BIOUL with S for U and E for L)
    bioul = {i: {"S": "U", "E": "L"}.get(tag[0], tag[0]) + tag[1:] for i, tag in enumerate(labels)}
    allowed = np.zeros((len(labels) + 2,) * 2, dtype=np.int64)
    for i, j in allowed_transitions("BIOUL", bioul):
        allowed[i, j] = 1
    assert np.array_equal(np.asarray(crf["allowed"]), allowed)
    assert crf["allowed"][labels.index("B-PER")][labels.index("E-PER")] == 1
    assert crf["allowed"][labels.index("B-PER")][labels.index("S-LOC")] == 0


def test_the_pruned_folder_runs_the_kept_layers_only():
    meta = json.loads((tagger_folder("pruned") / "green_model.json").read_text(encoding="utf-8"))
    assert [(lm["direction"], lm["layers"]) for lm in meta["language_models"]] == [("forward", 1), ("backward", 1)]
    sizes = [(tagger_folder(name) / "model.onnx").stat().st_size for name in ("origin", "pruned")]
    assert sizes[1] < sizes[0]


def test_a_gated_tagger_and_its_pruned_archive_tag_alike():
    """Layer selection's zero gates run inside the graph; after `green-prune-ldnet` the layers are gone."""
    lines = _lines("origin")
    selected, pruned = (load(tagger_folder(name), precision="fp32") for name in ("selected", "pruned"))
    assert [r.tags for r in selected.tag_many(lines)] == [r.tags for r in pruned.tag_many(lines)]
    # the gates do act (the tiny fixture tagger's tags barely depend on its LMs, its scores do)
    unpruned = load(tagger_folder("origin"), precision="fp32")
    feed = unpruned._feed(fixture_sentences()[:5])
    assert not np.allclose(
        unpruned.session.run(["logits"], feed)[0], selected.session.run(["logits"], feed)[0], atol=1e-3
    )


def test_a_folder_without_lms_takes_no_lm_ids():
    session = onnxruntime.InferenceSession(
        str(tagger_folder("nolm_cnn") / "model.onnx"), providers=["CPUExecutionProvider"]
    )
    assert [i.name for i in session.get_inputs()] == ["word_ids", "char_ids"]
    assert "lm" not in json.loads((tagger_folder("nolm_cnn") / "green_model.json").read_text())["inputs"]


def test_int8_graph_is_reported_as_agreement_with_fp32():
    from green_nlp.runtime.tagger_agreement import int8_agreement

    folder = tagger_folder("origin")
    sentences = fixture_sentences("origin")
    agreement = int8_agreement(folder, sentences)
    print(f"int8 agreement with fp32 on {len(sentences)} fixture sentences: {agreement}")
    assert agreement["words"] == sum(len(words) for words in sentences)
    assert 0.0 <= agreement["tags"] <= 1.0 and 0.0 <= agreement["spans"] <= 1.0
    assert (folder / "model.int8.onnx").read_bytes() != (folder / "model.onnx").read_bytes()


def test_a_tagger_part_the_runtime_cannot_run_is_named(tmp_path):
    """A GRU encoder and a bag-of-embeddings character encoder: each is named, no graph is written."""
    from allennlp.common import Params
    from allennlp.models import Model

    from green_nlp.export.common import load_for_export
    from green_nlp.export.tagger import export

    model, config = load_for_export(tagger_archive("origin"))
    for part, change, message in (
        ("encoder", {"type": "gru"}, "encoder GRU"),
        ("char", {"type": "boe", "embedding_dim": 4}, "character encoder BagOfEmbeddingsEncoder"),
    ):
        params = config.duplicate().as_dict(quiet=True)["model"]
        params.pop("language_models")
        params.pop("lm_projection_dim")
        params["text_field_embedder"]["token_embedders"]["tokens"].pop("pretrained_file")
        if part == "encoder":
            params["encoder"].update(change, input_size=58)
        else:
            params["text_field_embedder"]["token_embedders"]["token_characters"]["encoder"] = change
            params["encoder"]["input_size"] = 54
        odd = Model.from_params(vocab=model.vocab, params=Params(params)).eval()
        with pytest.raises(ConfigurationError, match=f"cannot export this green_ldnet_tagger: {message}"):
            export(odd, config, tmp_path)
        assert not (tmp_path / "model.onnx").exists()


def test_a_reader_the_runtime_cannot_repeat_is_named(tmp_path):
    from green_nlp.export.common import load_for_export
    from green_nlp.export.tagger import export

    model, config = load_for_export(tagger_archive("origin"))
    config = config.duplicate().as_dict(quiet=True)
    config["validation_dataset_reader"]["label_encoding"] = "BIO"
    with pytest.raises(ConfigurationError, match="label_encoding 'BIO'"):
        export(model, config, tmp_path)


def test_green_export_command_writes_a_tagger_folder(tmp_path):
    output = tmp_path / "tagger"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "green-export",
            str(tagger_archive("origin")),
            str(output),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    tagged = load(output).tag_tokens(["Sarah", "Jones", "works", "for", "Reuters", "."])
    assert tagged.words == ["Sarah", "Jones", "works", "for", "Reuters", "."] and len(tagged.tags) == 6


@pytest.mark.parametrize("name", ["origin", "pruned"])
def test_runtime_equals_the_predictor_on_500_real_conll03_sentences(name):
    """The fixture taggers on real CoNLL-03 test text (mostly words they never saw); skipped
    without the data. No tagger trained on CoNLL-03 is in the repository to check instead."""
    from green_nlp.dataset_readers.conll_tagging import read_columns
    from tests.conftest import require_data

    path = require_data("ner", "conll2003", "eng.testb")
    lines = []
    for rows, _ in read_columns(str(path)):
        lines.append(" ".join(row[0] for row in rows))
        if len(lines) == 500:
            break
    expected = _predictor(name).predict_batch_json([{"sentence": line} for line in lines])
    got = [result.to_json() for result in load(tagger_folder(name), precision="fp32").tag_many(lines, batch_size=32)]
    assert len(got) == 500 and got == expected
