import gzip

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.common.params import Params
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.models.archival import load_archive

from green_nlp.data.ngram_vocabulary import NGRAM_NAMESPACE
from green_nlp.modules.ngram_word_vectors import initialise_from_word_vectors, ngram_vectors
from tests.dan_helpers import DAN_CONFIG

VECTORS = {"good": [1.0, 0.0, 2.0], "film": [3.0, 4.0, 0.0], "not": [-1.0, 2.0, 2.0]}


def write_vectors(path, vectors=VECTORS, extra_lines=()):
    lines = [f"{word} {' '.join(str(v) for v in vector)}" for word, vector in vectors.items()] + list(extra_lines)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return str(path)


def test_each_ngram_gets_the_mean_of_its_known_words(tmp_path):
    path = write_vectors(tmp_path / "vectors.txt.gz", extra_lines=["broken 1.0 2.0"])
    table, known = ngram_vectors(["good film", "not", "unseen words", "not unseen good", "broken"], path, 8)
    assert known.tolist() == [True, True, False, True, False]
    assert torch.allclose(table[0], torch.tensor([2.0, 2.0, 1.0]))
    assert torch.allclose(table[1], torch.tensor(VECTORS["not"]))
    assert torch.allclose(table[3], torch.tensor([0.0, 1.0, 2.0]))  # "unseen" is left out of the mean
    assert table[2].abs().sum() == 0


def test_known_rows_are_written_rescaled_and_the_rest_left_alone(tmp_path):
    path = write_vectors(tmp_path / "vectors.txt.gz")
    weight = torch.full((4, 5), 7.0)
    assert initialise_from_word_vectors(weight, ["", "good film", "unseen", "not"], path, init_std=0.1) == 2
    assert (weight[0] == 7.0).all() and (weight[2] == 7.0).all()
    assert (weight[:, 3:] == 7.0).all()  # columns past the vectors' dimension keep their start
    written = weight[[1, 3], :3]
    assert torch.isclose(written.std(), torch.tensor(0.1))
    # the direction of each n-gram's vector is kept
    expected = torch.tensor([[2.0, 2.0, 1.0], VECTORS["not"]])
    assert torch.allclose(torch.nn.functional.cosine_similarity(written, expected), torch.ones(2))


def test_unusable_files_are_rejected_with_the_reason(tmp_path):
    path = write_vectors(tmp_path / "vectors.txt.gz")
    with pytest.raises(ConfigurationError, match="embedding_dim must be >= 3"):
        ngram_vectors(["good"], path, 2)
    with pytest.raises(ConfigurationError, match="none of the n-grams' 1 words"):
        ngram_vectors(["unseen"], path, 8)


def test_dan_starts_from_the_vectors_and_its_archive_loads_without_the_file(tmp_path):
    vocab = Vocabulary()
    for ngram in ("good film", "good", "boring"):
        vocab.add_token_to_namespace(ngram, NGRAM_NAMESPACE)
    vocab.add_tokens_to_namespace(["0", "1"], "labels")
    path = write_vectors(tmp_path / "vectors.txt.gz")
    model = Model.from_params(
        vocab=vocab, params=Params({"type": "green_ngram_dan", "embedding_dim": 6, "pretrained_file": path})
    )
    weight = model.ngram_embedding.weight
    ids = [vocab.get_token_index(n, NGRAM_NAMESPACE) for n in ("good film", "good")]
    cosine = torch.nn.functional.cosine_similarity(weight[ids, :3], torch.tensor([[2.0, 2.0, 1.0], VECTORS["good"]]))
    assert torch.allclose(cosine, torch.ones(2), atol=1e-6)
    assert weight[0].abs().sum() == 0  # padding stays zero


def test_trained_dan_with_word_vectors_archives_and_loads_without_them(tmp_path):
    from allennlp.commands.train import train_model_from_file

    words = ["the", "cast", "is", "beautifully", "made", "its", "ending", "mess", "and", "lifeless"]
    path = write_vectors(tmp_path / "vectors.txt.gz", {w: [float(i), 1.0, -float(i)] for i, w in enumerate(words)})
    serialization = tmp_path / "run"
    train_model_from_file(
        str(DAN_CONFIG), str(serialization), overrides={"model.pretrained_file": path, "trainer.num_epochs": 1}
    )
    (tmp_path / "vectors.txt.gz").unlink()
    archive = load_archive(str(serialization / "model.tar.gz"))
    assert archive.model.ngram_embedding.weight.shape[1] == 8
