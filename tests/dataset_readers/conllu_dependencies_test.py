import re

import pytest
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenCharactersIndexer

from green_nlp.dataset_readers import ConlluDependenciesReader, ConlluFormatError, read_conllu
from tests.conftest import BAD_INPUTS, FIXTURES, require_data

MWT_FILE = FIXTURES / "ud" / "multiword_and_empty_nodes.conllu"


def test_reader_gives_exact_fields_and_skips_multiword_tokens_and_empty_nodes():
    instances = list(ConlluDependenciesReader().read(MWT_FILE))
    assert len(instances) == 2
    first, second = (instance.fields for instance in instances)
    assert [t.text for t in first["words"].tokens] == ["I", "can", "not", "go", "."]
    assert first["upos"].labels == ["PRON", "AUX", "PART", "VERB", "PUNCT"]
    assert first["head_indices"].labels == [3, 4, 4, 0, 4]
    assert first["head_tags"].labels == ["nsubj", "aux", "advmod", "root", "punct"]
    assert [t.text for t in second["words"].tokens] == ["Sue", "likes", "tea", "and", "Bill", "coffee"]
    assert second["head_indices"].labels == [2, 0, 2, 5, 2, 5]
    assert second["head_tags"].labels[-1] == "orphan"


def test_reader_without_gold_upos_and_with_characters():
    reader = ConlluDependenciesReader(
        use_gold_upos=False,
        token_indexers={
            "tokens": SingleIdTokenIndexer(),
            "token_characters": TokenCharactersIndexer(min_padding_length=3),
        },
    )
    instance = next(iter(reader.read(MWT_FILE)))
    assert "upos" not in instance.fields
    assert "head_indices" in instance.fields
    vocab = Vocabulary.from_instances([instance])
    instance.index_fields(vocab)
    characters = instance.fields["words"].as_tensor(instance.fields["words"].get_padding_lengths())
    assert characters["token_characters"]["token_characters"].shape[0] == 5


def test_columns_are_kept_for_round_trip():
    sentence = next(read_conllu(MWT_FILE))
    assert sentence.metadata["sent_id"] == "mwt-1"
    assert sentence.feats[0] == "Case=Nom"
    assert sentence.misc[3] == "SpaceAfter=No"
    assert sentence.lemmas[1] == "can"


def test_max_sentence_length_skips_long_sentences():
    reader = ConlluDependenciesReader(max_sentence_length=5)
    assert len(list(reader.read(MWT_FILE))) == 1


def test_sentences_without_heads_are_read_for_prediction(tmp_path):
    path = tmp_path / "no_heads.conllu"
    path.write_text("1\tHello\t_\tINTJ\t_\t_\t_\t_\t_\t_\n2\tthere\t_\tADV\t_\t_\t_\t_\t_\t_\n\n")
    instance = next(iter(ConlluDependenciesReader().read(path)))
    assert "head_indices" not in instance.fields
    assert instance.fields["upos"].labels == ["INTJ", "ADV"]


@pytest.mark.parametrize("first_has_tree", [True, False])
def test_a_file_mixing_sentences_with_and_without_trees_is_refused_at_the_first_that_differs(tmp_path, first_has_tree):
    """Mixed, a batch held instances with and without gold heads: AllenNLP's "non-homogeneous
    Instances" error, naming neither file nor line."""
    tree = "1\tHello\t_\tINTJ\t_\t_\t0\troot\t_\t_\n2\tthere\t_\tADV\t_\t_\t1\tadvmod\t_\t_\n\n"
    no_tree = "1\tHello\t_\tINTJ\t_\t_\t_\t_\t_\t_\n2\tthere\t_\tADV\t_\t_\t_\t_\t_\t_\n\n"
    path = tmp_path / "mixed.conllu"
    path.write_text((tree + no_tree) if first_has_tree else (no_tree + tree))
    expected = "has no tree (HEAD _)" if first_has_tree else "has a tree"
    with pytest.raises(ConlluFormatError, match=f"^{re.escape(str(path))}:4: this sentence {re.escape(expected)} but"):
        list(ConlluDependenciesReader().read(path))


BAD_CONLLU = {
    "conllu_wrong_column_count.conllu": (1, "expected 10 tab-separated columns, found 9"),
    "conllu_non_integer_head.conllu": (2, "HEAD 'x' is not a non-negative integer"),
    "conllu_out_of_range_head.conllu": (1, "HEAD 7 is out of range"),
    "conllu_cycle_no_root.conllu": (1, "no root"),
    "conllu_cycle.conllu": (2, "cycle"),
    "conllu_two_roots.conllu": (2, "2 roots"),
    "conllu_empty.conllu": (1, "contains no sentences"),
    "conllu_blank_only.conllu": (1, "contains no sentences"),
    "conllu_non_utf8.conllu": (2, "not valid UTF-8"),
    "conllu_id_out_of_sequence.conllu": (2, "out of sequence"),
}


@pytest.mark.parametrize("name", sorted(BAD_CONLLU))
def test_malformed_conllu_names_file_and_line(name):
    line, message = BAD_CONLLU[name]
    with pytest.raises(ConlluFormatError, match=re.escape(f"{name}:{line}: ") + ".*" + re.escape(message)):
        list(ConlluDependenciesReader().read(BAD_INPUTS / name))


def test_crlf_line_ends_are_read_like_lf():
    instance = next(iter(ConlluDependenciesReader().read(BAD_INPUTS / "conllu_crlf_line_ends.conllu")))
    assert [t.text for t in instance.fields["words"].tokens] == ["The", "cat"]
    assert instance.fields["head_tags"].labels == ["det", "root"]


def test_thousand_token_sentence_is_read():
    instance = next(iter(ConlluDependenciesReader().read(BAD_INPUTS / "conllu_1000_token_sentence.conllu")))
    assert len(instance.fields["words"].tokens) == 1000


def test_missing_file_says_so(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found"):
        list(ConlluDependenciesReader().read(tmp_path / "nope.conllu"))


def test_real_ewt_dev_counts():
    path = require_data("ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    instances = list(ConlluDependenciesReader().read(path))
    assert len(instances) == 2001
    assert sum(len(i.fields["words"].tokens) for i in instances) == 25147
    vocab = Vocabulary.from_instances(instances)
    assert vocab.get_vocab_size("upos") == 17 + 2  # 17 UPOS tags + padding and OOV
    assert "nsubj:pass" in vocab.get_token_to_index_vocabulary("deprel_labels")


@pytest.mark.parametrize("treebank", ["UD_English-EWT", "UD_Tamil-TTB", "UD_Wolof-WTB", "UD_Chinese-GSD_v1.3"])
def test_every_real_treebank_file_reads_cleanly(treebank):
    folder = require_data("ud", treebank)
    files = sorted(folder.glob("*.conllu"))
    assert len(files) == 3
    for path in files:
        assert sum(1 for _ in read_conllu(path)) > 0


def _fields_by_namespace(instance):
    return {
        name: (getattr(field, "_label_namespace", None), getattr(field, "labels", None))
        for name, field in instance.fields.items()
        if name not in ("words", "metadata")
    }


def test_allennlp_models_field_names_match_allennlp_models_own_reader():
    from allennlp_models.structured_prediction.dataset_readers import UniversalDependenciesDatasetReader

    path = FIXTURES / "ud" / "synthetic-tiny.conllu"
    ours = list(ConlluDependenciesReader(field_names="allennlp_models").read(path))
    theirs = list(UniversalDependenciesDatasetReader().read(path))
    assert len(ours) == len(theirs) > 0
    for mine, reference in zip(ours, theirs):
        assert (
            set(mine.fields) == set(reference.fields) == {"words", "pos_tags", "head_tags", "head_indices", "metadata"}
        )
        assert _fields_by_namespace(mine) == _fields_by_namespace(reference)
        assert [t.text for t in mine["words"].tokens] == [t.text for t in reference["words"].tokens]
        for key in ("words", "pos"):
            assert mine["metadata"][key] == reference["metadata"][key]
    assert ours[0]["pos_tags"]._label_namespace == "pos" and ours[0]["head_tags"]._label_namespace == "head_tags"


def test_allennlp_models_field_names_keep_multiword_handling_and_prediction_input(tmp_path):
    reader = ConlluDependenciesReader(field_names="allennlp_models")
    first = next(iter(reader.read(MWT_FILE)))
    assert first["pos_tags"].labels == ["PRON", "AUX", "PART", "VERB", "PUNCT"]
    assert first["head_indices"].labels == [3, 4, 4, 0, 4]
    path = tmp_path / "no_heads.conllu"
    path.write_text("1\tHello\t_\tINTJ\t_\t_\t_\t_\t_\t_\n2\tthere\t_\tADV\t_\t_\t_\t_\t_\t_\n\n")
    unparsed = next(iter(reader.read(path)))
    assert set(unparsed.fields) == {"words", "pos_tags", "metadata"}


def test_default_field_names_are_unchanged():
    instance = next(iter(ConlluDependenciesReader().read(MWT_FILE)))
    assert set(instance.fields) == {"words", "upos", "head_indices", "head_tags", "metadata"}
    assert instance["upos"]._label_namespace == "upos"
    assert instance["head_tags"]._label_namespace == "deprel_labels"


def test_field_names_are_checked():
    from allennlp.common.checks import ConfigurationError

    with pytest.raises(ConfigurationError, match="field_names must be one of"):
        ConlluDependenciesReader(field_names="allennlp")
    with pytest.raises(ConfigurationError, match="needs use_gold_upos true"):
        ConlluDependenciesReader(field_names="allennlp_models", use_gold_upos=False)


def _conllu(*lengths: int) -> str:
    """Sentences of these lengths, each word attached to the first."""
    sentences = []
    for length in lengths:
        words = ["1\tw\t_\tX\t_\t_\t0\troot\t_\t_"]
        words += [f"{i}\tw\t_\tX\t_\t_\t1\tdep\t_\t_" for i in range(2, length + 1)]
        sentences.append("\n".join(words) + "\n\n")
    return "".join(sentences)


def test_a_file_with_every_sentence_too_long_is_an_error_naming_the_setting(tmp_path):
    """Training on nothing used to succeed, with one warning in the log and a model.tar.gz."""
    path = tmp_path / "train.conllu"
    path.write_text(_conllu(3, 4), encoding="utf-8")
    reader = ConlluDependenciesReader(max_sentence_length=2)
    with pytest.raises(
        ConfigurationError,
        match=rf"^no sentences are left in {path} after filtering: 2 longer than max_sentence_length 2 "
        r"\(raise dataset_reader.max_sentence_length",
    ):
        list(reader.read(str(path)))
    assert len(list(ConlluDependenciesReader(max_sentence_length=3).read(str(path)))) == 1


def test_a_file_with_every_sentence_malformed_or_too_long_is_an_error_naming_both(tmp_path):
    path = tmp_path / "train.conllu"
    path.write_text(_conllu(3) + "1\tw\t_\tX\t_\t_\tx\troot\t_\t_\n\n", encoding="utf-8")
    reader = ConlluDependenciesReader(skip_malformed=True, max_sentence_length=2)
    with pytest.raises(
        ConfigurationError,
        match=r"1 longer than max_sentence_length 2 .*; 1 malformed, skipped by "
        rf"skip_malformed \(the first: {path}:5: column 7 \(HEAD\)",
    ):
        list(reader.read(str(path)))
    path.write_text("1\tw\t_\tX\t_\t_\tx\troot\t_\t_\n\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"after filtering: 1 malformed, skipped by skip_malformed"):
        list(ConlluDependenciesReader(skip_malformed=True).read(str(path)))


def test_a_fold_that_leaves_nothing_is_an_error(tmp_path):
    path = tmp_path / "one.conllu"
    path.write_text(_conllu(3), encoding="utf-8")
    folds = [ConlluDependenciesReader(cross_fit_folds=2, leave_out_fold=fold) for fold in (0, 1)]
    outcomes = []
    for reader in folds:
        try:
            outcomes.append(len(list(reader.read(str(path)))))
        except ConfigurationError as error:
            assert "1 in fold" in str(error) and "leave_out_fold" in str(error)
            outcomes.append("error")
    assert sorted(outcomes, key=str) == [1, "error"]
