"""`green_nlp.export.allennlp_internals` on the fixture archives and on hand-built AllenNLP parts whose
settings are known, so each read is checked against a value set from outside."""

import logging
from types import SimpleNamespace

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import TokenIndexer, Vocabulary
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenCharactersIndexer
from allennlp.data.tokenizers import CharacterTokenizer
from allennlp.models import Model
from allennlp.models.archival import load_archive
from allennlp.modules import ConditionalRandomField
from allennlp.modules.conditional_random_field import allowed_transitions as bioes_transitions
from allennlp.modules.seq2seq_encoders import GruSeq2SeqEncoder
from allennlp.modules.seq2vec_encoders import CnnEncoder, PytorchSeq2VecWrapper
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder, TextFieldEmbedder
from allennlp.modules.token_embedders import Embedding, TokenCharactersEncoder
from torch import nn

from green_nlp.export import allennlp_internals as internals
from green_nlp.models.ldnet_tagger import LABELS
from tests.export.exported_models import TEACHER_ARCHIVE
from tests.export.tagger_models import COMMITTED


@pytest.fixture(scope="module")
def teacher():
    import green_nlp

    green_nlp.register()
    return load_archive(str(TEACHER_ARCHIVE), cuda_device=-1)


@pytest.fixture(scope="module")
def tagger():
    import green_nlp

    green_nlp.register()
    return load_archive(str(COMMITTED["origin"]), cuda_device=-1)


def _indexer(archive, key: str) -> TokenIndexer:
    indexers = archive.config.as_dict(quiet=True)["dataset_reader"]["token_indexers"]
    return TokenIndexer.from_params(Params(dict(indexers[key])))


# ------------------------------------------------------------- parser archive
def test_parser_embedders_encoder_vocabulary_and_registered_name(teacher):
    model = teacher.model
    embedders = internals.token_embedders(model.text_field_embedder)
    assert list(embedders) == ["tokens"] and type(embedders["tokens"]) is Embedding
    assert embedders["tokens"] is dict(model.text_field_embedder.named_children())["token_embedder_tokens"]
    lstm = internals.wrapped_lstm(model.encoder)
    assert type(lstm) is nn.LSTM and lstm.hidden_size == 16 and lstm.bidirectional  # the archive's config
    assert any(module is lstm for module in model.encoder.modules())
    assert internals.oov_token(model.vocab) == "@@UNKNOWN@@"
    assert internals.registered_model_name(model) == "green_biaffine_parser"
    assert Model.by_name("green_biaffine_parser") is type(model)


def test_parser_word_indexer_settings(teacher):
    settings = internals.single_id_settings(_indexer(teacher, "tokens"))
    assert settings == internals.SingleIdSettings(
        namespace="tokens", lowercase=True, start_tokens=(), end_tokens=(), feature_name="text"
    )


# ------------------------------------------------------------- tagger archive
def test_tagger_character_lstm_and_embedding(tagger):
    model = tagger.model
    embedders = internals.token_embedders(model.text_field_embedder)
    assert sorted(embedders) == ["token_characters", "tokens"]
    encoder = internals.character_encoder(embedders["token_characters"])
    assert isinstance(encoder, PytorchSeq2VecWrapper)
    lstm = internals.wrapped_lstm(encoder)
    assert (lstm.input_size, lstm.hidden_size, lstm.bidirectional) == (4, 4, True)  # the archive's config
    embedding = internals.character_embedding(embedders["token_characters"])
    assert type(embedding) is Embedding and embedding.get_output_dim() == 4
    assert embedding.weight.size(0) == model.vocab.get_vocab_size("token_characters")


def test_tagger_indexer_settings(tagger):
    characters = internals.character_settings(_indexer(tagger, "token_characters"))
    assert characters == internals.CharacterSettings(
        namespace="token_characters",
        min_padding_length=1,
        start_tokens=(),
        end_tokens=(),
        byte_encoding=None,
        lowercase=False,
        tokenizer_start_tokens=(),
        tokenizer_end_tokens=(),
    )
    assert internals.single_id_settings(_indexer(tagger, "ldnet_lm")).namespace == "ldnet_lm_tokens"


def test_tagger_crf_mask_is_allennlps_bioes_constraints(tagger):
    model = tagger.model
    labels = model.vocab.get_index_to_token_vocabulary(LABELS)
    size = len(labels) + 2
    # BIOES is allennlp's BIOUL with S for U and E for L
    as_bioul = {i: {"S": "U", "E": "L"}.get(tag[0], tag[0]) + tag[1:] for i, tag in labels.items()}
    expected = torch.zeros(size, size, dtype=torch.int64)
    for i, j in bioes_transitions("BIOUL", as_bioul):
        expected[i, j] = 1
    mask = internals.allowed_transitions(model.crf).to(torch.int64)
    assert torch.equal(mask, expected)
    index = {tag: i for i, tag in labels.items()}
    start = len(labels)
    b_per, e_per, b_org = index["B-PER"], index["E-PER"], index["B-ORG"]
    assert mask[b_per, e_per] == 1 and mask[e_per, b_org] == 1 and mask[start, b_per] == 1
    assert mask[index["O"], e_per] == 0 and mask[b_per, b_org] == 0 and mask[start, e_per] == 0


def test_crf_without_constraints_allows_everything():
    assert bool(internals.allowed_transitions(ConditionalRandomField(3)).all())


# -------------------------------------------------------------- hand-built
def test_character_settings_read_every_option_in_configured_order():
    indexer = TokenCharactersIndexer(
        namespace="chars",
        character_tokenizer=CharacterTokenizer(
            byte_encoding="utf-8", lowercase_characters=True, start_tokens=[259, 260], end_tokens=[261]
        ),
        start_tokens=["<w>"],
        end_tokens=["</w>", "</s>"],
        min_padding_length=3,
    )
    assert internals.character_settings(indexer) == internals.CharacterSettings(
        namespace="chars",
        min_padding_length=3,
        start_tokens=("<w>",),
        end_tokens=("</w>", "</s>"),
        byte_encoding="utf-8",
        lowercase=True,
        tokenizer_start_tokens=("259", "260"),
        tokenizer_end_tokens=("261",),
    )


def test_single_id_settings_read_every_option():
    indexer = SingleIdTokenIndexer(
        namespace="words", lowercase_tokens=False, start_tokens=["@start@"], end_tokens=["@end@"], feature_name="lemma_"
    )
    assert internals.single_id_settings(indexer) == internals.SingleIdSettings(
        namespace="words", lowercase=False, start_tokens=("@start@",), end_tokens=("@end@",), feature_name="lemma_"
    )


def test_widest_kernel_and_character_cnn():
    cnn = CnnEncoder(embedding_dim=3, num_filters=2, ngram_filter_sizes=(2, 5, 3))
    assert internals.widest_kernel(cnn) == 5
    encoder = TokenCharactersEncoder(Embedding(embedding_dim=3, num_embeddings=7), cnn)
    assert internals.character_encoder(encoder) is cnn
    assert internals.inner_module(cnn) is cnn  # not a wrapper: itself


def test_oov_token_is_the_vocabularys_own():
    assert internals.oov_token(Vocabulary(oov_token="<unk>")) == "<unk>"


def test_a_wrapper_around_another_rnn_is_refused_by_name():
    gru = GruSeq2SeqEncoder(input_size=3, hidden_size=2)
    assert type(internals.inner_module(gru)) is nn.GRU
    with pytest.raises(ConfigurationError, match="GruSeq2SeqEncoder wraps GRU, not an LSTM"):
        internals.wrapped_lstm(gru)


def test_wrong_owner_types_are_refused_by_name():
    class Concatenating(TextFieldEmbedder):
        pass

    with pytest.raises(ConfigurationError, match="text field embedder Concatenating"):
        internals.token_embedders(Concatenating())
    with pytest.raises(ConfigurationError, match="Embedding is not a character encoder"):
        internals.character_encoder(Embedding(embedding_dim=3, num_embeddings=7))
    assert internals.token_embedders(BasicTextFieldEmbedder({})) == {}


def test_a_missing_private_attribute_names_itself_and_the_release():
    with pytest.raises(ConfigurationError, match=r"SimpleNamespace\._oov_token is missing in allennlp .* 2\.10\.1"):
        internals.oov_token(SimpleNamespace())


def test_an_unregistered_model_class_has_no_name(teacher):
    class Unregistered(type(teacher.model)):  # type: ignore[misc]
        pass

    model = object.__new__(Unregistered)
    assert internals.registered_model_name(model) is None


# ----------------------------------------------------------------- version
def test_version_check_warns_on_another_allennlp(monkeypatch, caplog):
    assert internals.allennlp_matches()  # the installed release is the one read
    monkeypatch.setattr(internals, "installed_version", lambda package: "9.9.9")
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        assert not internals.allennlp_matches()
    assert "allennlp 2.10.1, but allennlp 9.9.9 is installed" in caplog.text
