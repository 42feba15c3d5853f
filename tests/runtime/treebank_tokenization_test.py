import json
import shutil

import pytest

from green_nlp.runtime import load
from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.treebank_tokenization import (
    FILE,
    TokenizationRules,
    from_folder,
    headed_shape_key,
    shape_key,
)


def test_shapes_name_digits_letters_mixed_and_punctuation_runs():
    assert shape_key(["713", "-", "853", "-", "1696"]) == "d - d - d"
    assert shape_key(["e", "-", "mail", "AK47", "!!!", "?!"]) == "a - a m !+ ?!"
    assert headed_shape_key(["Non", "-", "human"]) == "non|- a"


def test_each_rule_kind_applies_in_order_and_the_longest_merge_wins():
    rules = TokenizationRules(
        split={"alot": ["a", "lot"]},
        merge_runs=["!"],
        merge_strings=["e-mail"],
        merge_shapes=["d - d - d"],
        merge_headed=["non|- a"],
    )
    assert rules.chunk(["alot"]) == ["a", "lot"]
    assert rules.chunk(["!", "!", "!", "?"]) == ["!!!", "?"]
    assert rules.chunk(["?", "?"]) == ["?", "?"]  # no rule for "?"
    assert rules.chunk(["e", "-", "mail", "."]) == ["e-mail", "."]
    assert rules.chunk(["713", "-", "853", "-", "1696"]) == ["713-853-1696"]  # not "713-853" + ...
    assert rules.chunk(["713", "-", "853"]) == ["713", "-", "853"]
    assert rules.chunk(["(", "non", "-", "Microsoft", ")"]) == ["(", "non-Microsoft", ")"]
    assert rules.chunk(["long", "-", "term"]) == ["long", "-", "term"]


def test_a_headed_rule_alone_merges_its_whole_span_even_with_a_bar_in_its_head():
    # a headed key names one more token than its spaces: head, then a shape per token after it
    assert TokenizationRules(merge_headed=["non|- a"]).chunk(["non", "-", "Microsoft"]) == ["non-Microsoft"]
    # the head "a|b" holds the key's own separator
    assert TokenizationRules(merge_headed=["a|b|- a"]).chunk(["a|b", "-", "c", "."]) == ["a|b-c", "."]
    assert TokenizationRules(merge_shapes=["| a"]).chunk(["|", "x"]) == ["|x"]


def test_merges_stay_inside_whitespace_free_chunks():
    rules = TokenizationRules(merge_runs=["!"], merge_strings=["e-mail"])
    # (text, whitespace after): "e- mail !! !" and a whitespace token
    tokens = [("e", False), ("-", True), ("mail", True), ("!", False), ("!", True), ("  ", False), ("!", False)]
    assert rules.words(tokens) == ["e", "-", "mail", "!!", "!"]
    assert TokenizationRules().words(tokens) == ["e", "-", "mail", "!", "!", "!"]


def test_multiword_tokens_join_adjacent_words_by_their_last_word_or_their_text():
    rules = TokenizationRules(multiword_suffixes=["n't", "'s"], multiword_strings=["gonna", "dunno"])
    text = "I don't know , Bob's gonna go ( du n no ) dunno"
    words = ["I", "do", "n't", "know", ",", "Bob", "'s", "gon", "na", "go", "(", "du", "n", "no", ")", "du", "n", "no"]
    assert rules.multiword_tokens(text, words) == [(1, 2), (5, 6), (7, 8), (15, 17)]  # "du n no" has spaces
    assert rules.multiword_tokens("do n't", ["do", "n't"]) == []  # a space between: two tokens
    assert rules.multiword_tokens("don't", ["dont"]) == []  # words that do not spell the text
    assert TokenizationRules().multiword_tokens(text, words) == []


def test_rules_round_trip_through_json_and_bad_rules_are_refused(tmp_path):
    rules = TokenizationRules(
        split={"wanna": ["wan", "na"]}, merge_runs=["="], merge_headed=["pre|- a"], multiword_suffixes=["n't"]
    )
    path = tmp_path / FILE
    path.write_text(json.dumps(rules.to_json(source="train.conllu")), encoding="utf-8")
    again = TokenizationRules.read(path)
    assert again.chunk(["wanna"]) == ["wan", "na"] and again.merge_headed == {"pre|- a"} and len(again) == 4
    assert again.multiword_suffixes == {"n't"}
    with pytest.raises(ValueError, match="must be 2\\+ and spell the token"):
        TokenizationRules(split={"alot": ["a", "lots"]})
    path.write_text('{"format": 99}', encoding="utf-8")
    with pytest.raises(ValueError, match="not tokenizer rules of format 1"):
        TokenizationRules.read(path)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not JSON tokenizer rules"):
        TokenizationRules.read(path)


def _with_rules(folder, tmp_path, rules: TokenizationRules):
    from green_nlp.runtime.model_folder import record_file_hashes

    copy = tmp_path / "with-rules"
    shutil.copytree(folder, copy)
    (copy / FILE).write_text(json.dumps(rules.to_json(source="test")), encoding="utf-8")
    meta = json.loads((copy / "green_model.json").read_text())
    meta.setdefault("tokenizer", {})["rules"] = {"file": FILE}
    (copy / "green_model.json").write_text(json.dumps(meta), encoding="utf-8")
    record_file_hashes(copy)
    return copy


def test_a_folder_with_rules_tokenizes_raw_text_by_them(parser_folders, tmp_path):
    plain = load(parser_folders["quickstart"], threads=1, precision="fp32")
    assert plain.parse("Send an e-mail !!").sentences[0].words == ["Send", "an", "e", "-", "mail", "!", "!"]
    folder = _with_rules(
        parser_folders["quickstart"], tmp_path, TokenizationRules(merge_runs="!", merge_strings=["e-mail"])
    )
    nlp = load(folder, threads=1, precision="fp32")
    assert nlp.parse("Send an e-mail !!").sentences[0].words == ["Send", "an", "e-mail", "!!"]
    assert from_folder(folder, json.loads((folder / "green_model.json").read_text())) is not None
    (folder / FILE).write_text(json.dumps(TokenizationRules().to_json(source="swapped")), encoding="utf-8")
    with pytest.raises(ModelFolderError, match="sha256"):
        load(folder, threads=1)


def test_rules_named_outside_the_folder_or_broken_are_refused(tmp_path):
    with pytest.raises(ModelFolderError, match="must be an object with a 'file'"):
        from_folder(tmp_path, {"tokenizer": {"rules": "tokenizer_rules.json"}})
    with pytest.raises(ModelFolderError, match="outside the folder"):
        from_folder(tmp_path, {"tokenizer": {"rules": {"file": "../rules.json"}}})
    (tmp_path / FILE).write_text('{"format": 1, "split": {"ab": ["a"]}}', encoding="utf-8")
    with pytest.raises(ModelFolderError, match="tokenizer rules unreadable"):
        from_folder(tmp_path, {"tokenizer": {"rules": {"file": FILE}}})
    assert from_folder(tmp_path, {"tokenizer": {"language": "en"}}) is None
