"""The torch-free parser runtime: what it imports, how it finds models, batching, decoding."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from green_nlp.runtime import load, resolve_model
from green_nlp.runtime.errors import InputError
from green_nlp.runtime.parser_decoding import decode_sentence, greedy_trees, is_tree, single_root_mst
from green_nlp.runtime.universal_pos import UNIVERSAL_POS
from tests.conftest import REPO_ROOT

WORDS = ["the", "cat", "sees", "a", "dog", "."]
UPOS = ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"]


def test_runtime_parses_pre_tokenized_input_without_torch_or_allennlp(parser_folders):
    script = (
        "import sys, json\n"
        "import green_nlp.runtime as runtime\n"
        f"nlp = runtime.load({str(parser_folders['teacher'])!r}, threads=1)\n"
        f"doc = nlp.parse_tokens({WORDS!r}, {UPOS!r})\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'allennlp', 'allennlp_models'))\n"
        "print(json.dumps({'heavy': heavy, 'heads': doc.sentences[0].heads}))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["heavy"] == []
    assert len(report["heads"]) == len(WORDS) and report["heads"].count(0) == 1


def test_a_model_name_is_found_under_green_nlp_models(parser_folders, tmp_path, monkeypatch):
    shutil.copytree(parser_folders["teacher"], tmp_path / "tiny-teacher")
    monkeypatch.setenv("GREEN_NLP_MODELS", os.pathsep.join([str(tmp_path / "missing"), str(tmp_path)]))
    assert resolve_model("tiny-teacher") == tmp_path / "tiny-teacher"
    assert load("tiny-teacher").parse_tokens(WORDS, UPOS).sentences[0].words == WORDS


def test_an_unknown_model_name_lists_the_models_available(parser_folders, tmp_path, monkeypatch):
    shutil.copytree(parser_folders["teacher"], tmp_path / "tiny-teacher")
    monkeypatch.setenv("GREEN_NLP_MODELS", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="no model 'no-such-parser'.*tiny-teacher"):
        load("no-such-parser")


def test_a_folder_without_metadata_is_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="green_model.json"):
        resolve_model(tmp_path)


def test_a_folder_here_named_as_a_model_holds_it_or_leaves_the_name_to_the_lookup(
    parser_folders, tmp_path, monkeypatch, caplog
):
    """A folder of that name without a model (an output folder) made the name fail outright; one with
    a model is used, as documented, and a warning says so where it hides the named model."""
    shutil.copytree(parser_folders["teacher"], tmp_path / "models" / "tiny-teacher")
    monkeypatch.setenv("GREEN_NLP_MODELS", str(tmp_path / "models"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny-teacher").mkdir()  # no model in it
    assert resolve_model("tiny-teacher") == tmp_path / "models" / "tiny-teacher"
    with pytest.raises(FileNotFoundError, match="holds no green_model.json"):
        resolve_model(tmp_path / "tiny-teacher")  # a path, not a name: no lookup
    shutil.rmtree(tmp_path / "tiny-teacher")
    shutil.copytree(parser_folders["teacher"], tmp_path / "tiny-teacher")
    with caplog.at_level("WARNING"):
        assert resolve_model("tiny-teacher") == Path("tiny-teacher")
    assert "the model folder here is used, not the model of that name in" in caplog.text
    caplog.clear()
    monkeypatch.chdir(tmp_path / "models")  # the lookup's own folder: the same model, nothing to say
    with caplog.at_level("WARNING"):
        assert resolve_model("tiny-teacher") == Path("tiny-teacher")
    assert caplog.text == ""


def test_auto_precision_falls_back_to_int8(parser_folders, tmp_path):
    folder = tmp_path / "int8_only"
    shutil.copytree(parser_folders["teacher"], folder)
    (folder / "model.onnx").unlink()
    nlp = load(folder)
    assert nlp.session._model_path.endswith("model.int8.onnx")
    assert nlp.parse_tokens(WORDS, UPOS).sentences[0].heads.count(0) == 1
    with pytest.raises(FileNotFoundError, match="no fp32 model"):
        load(folder, precision="fp32")
    with pytest.raises(ValueError, match="precision"):
        load(folder, precision="fp16")


def test_parse_many_keeps_input_order_across_batches(parser_folders):
    nlp = load(parser_folders["quickstart"], threads=1)
    lines = [
        "a cat sees a dog .",
        "",
        "every teacher trains the model in the city . a student reads .",
        "the dog .",
        "the small cat sees a green dog near the old river .",
    ]
    one_by_one = [
        nlp.parse(line).to_json() if line else {"error": "texts[1] is empty: nothing to parse"} for line in lines
    ]
    assert [doc.to_json() for doc in nlp.parse_many(iter(lines), batch_size=2)] == one_by_one
    assert [len(doc.get("sentences", [])) for doc in one_by_one] == [1, 0, 2, 1, 1]
    with pytest.raises(InputError, match="^text is empty: nothing to parse"):  # issue 44: was {"sentences": []}
        nlp.parse(lines[1])


def test_one_word_and_unknown_words_parse(parser_folders):
    nlp = load(parser_folders["quickstart"], threads=1)
    doc = nlp.parse_tokens(["Zyxwvut"])
    assert doc.sentences[0].heads == [0] and len(doc.sentences[0].upos) == 1
    assert nlp.parse_tokens(["Ünïcödé", "qq", "."]).sentences[0].heads.count(0) == 1


def test_bad_input_is_a_clear_error(parser_folders):
    raw = load(parser_folders["quickstart"], threads=1)
    with pytest.raises(ValueError, match="max_sentence_length"):
        raw.parse(" ".join(["dog"] * 1001))
    with pytest.raises(ValueError, match="no tokens"):
        raw.parse_tokens([])
    gold = load(parser_folders["teacher"], threads=1)
    with pytest.raises(ValueError, match="UPOS"):
        gold.parse("the cat sees a dog .")
    with pytest.raises(ValueError, match="UPOS"):
        gold.parse_tokens(WORDS)


def test_a_tag_from_another_tagset_is_refused_and_an_unseen_upos_tag_is_read_as_unknown(parser_folders):
    """PTB tags given as UPOS used to parse as if every tag were unknown; now they are named."""
    gold = load(parser_folders["teacher"], threads=1)
    ptb = ["DT", "NN", "VBZ", "DT", "NN", "."]
    refused = r"upos\[0\] is 'DT', not a tag this model knows \(.*DET.*\) and not a Universal POS"
    with pytest.raises(InputError, match=refused):
        gold.parse_tokens(WORDS, ptb)
    unseen = sorted(UNIVERSAL_POS - set(gold.inputs.upos.index))  # the fixture treebank is tiny
    assert unseen and gold.inputs.upos.oov is not None
    tree = gold.parse_tokens(WORDS, UPOS[:-1] + [unseen[0]]).sentences[0]
    assert tree.words == WORDS and len(tree.heads) == len(WORDS)


def test_outputs_print_as_conllu_and_json(parser_folders):
    doc = load(parser_folders["quickstart"], threads=1).parse("The cat sat. It slept.")
    record = doc.to_json()
    assert [s["words"] for s in record["sentences"]] == [["The", "cat", "sat", "."], ["It", "slept", "."]]
    assert record["sentences"][0]["comments"] == {"text": "The cat sat."}
    import conllu

    blocks = conllu.parse(doc.to_conllu())
    assert [[t["head"] for t in block] for block in blocks] == [s["heads"] for s in record["sentences"]]
    assert blocks[1].metadata["text"] == "It slept."


def test_decoding_matches_the_training_code_on_random_scores():
    from green_nlp.nn.tree_decoding import decode_mst, is_well_formed_tree

    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 9))
        heads = rng.integers(0, n + 1, size=n).tolist()
        assert is_tree(heads) == is_well_formed_tree(heads)
        scores = rng.normal(size=(n + 1, n + 1)).astype(np.float32)
        assert single_root_mst(scores) == decode_mst(scores)


def test_the_batch_tree_check_agrees_with_is_tree_sentence_by_sentence():
    """Random padded batches whose greedy heads are often no tree (two roots, cycles, self-loops, a
    head in the padding): `greedy_trees` says what `is_tree` says of each sentence's heads."""
    rng = np.random.default_rng(1)
    verdicts = []
    for _ in range(200):
        lengths = rng.integers(1, 12, size=int(rng.integers(1, 6)))
        positions = int(lengths.max()) + 1 + int(rng.integers(0, 3))  # padding past the longest, at times
        scores = rng.normal(size=(len(lengths), positions, positions)).astype(np.float32)
        for b, n in enumerate(lengths):  # about half the sentences made a greedy tree (a chain to ROOT)
            if rng.random() < 0.5:
                for word in range(1, n + 1):
                    scores[b, word, word - 1] = 9.0
        greedy, trees = greedy_trees(scores, lengths)
        for b, n in enumerate(lengths):
            heads = scores[b, 1 : n + 1].argmax(-1).tolist()
            assert greedy[b, :n].tolist() == heads
            assert bool(trees[b]) == is_tree(heads)
            verdicts.append(bool(trees[b]))
    assert 0.3 < sum(verdicts) / len(verdicts) < 0.8  # both kinds were met


def test_decode_sentence_keeps_greedy_trees_and_repairs_the_rest():
    scores = np.full((4, 4), -5.0, dtype=np.float32)
    scores[1, 2] = scores[2, 0] = scores[3, 2] = 1.0  # greedy: 2 <- 1, ROOT <- 2, 2 <- 3: a tree
    assert decode_sentence(scores, 3).tolist() == [2, 0, 2]
    scores[1, 0] = 2.0  # greedy now puts words 1 and 2 on ROOT: two roots, so the MST decides
    heads = decode_sentence(scores, 3).tolist()
    assert is_tree(heads) and heads.count(0) == 1


def test_relabelled_words_are_scored_as_the_label_biaffine_defines():
    """The runtime scores a moved word's labels with two matrix products; they are the bilinear form
    `dep' W_o head'` (both with their bias 1) for every label o."""
    nlp = load(REPO_ROOT / "pretrained" / "en-ewt-parser")
    weight = nlp.label_weight()
    rng = np.random.default_rng(2)
    width = weight.shape[1] - 1
    dep, head = (rng.normal(size=(5, width)).astype(np.float32) for _ in range(2))
    scores = nlp._label_scores(dep, head)
    ones = np.ones((5, 1), dtype=np.float32)
    expected = np.einsum("ki,oij,kj->ko", np.hstack([dep, ones]), weight, np.hstack([head, ones]))
    assert scores.shape == (5, weight.shape[0])
    np.testing.assert_allclose(scores, expected, rtol=1e-4, atol=1e-4)
    assert (scores.argmax(-1) == expected.argmax(-1)).all()
