"""Start n-gram embeddings from pretrained word vectors: each n-gram gets the mean of its words'.

Why: the paper's students learn their n-gram table from millions of teacher-labeled texts. With
the few hundred thousand this data folder offers, most n-grams are seen a handful of times, and a
random start leaves rare ones near noise. Word vectors (GloVe) give every n-gram whose words are
known a start that already places "great film" near "excellent movie", as the original DAN
(Iyyer et al. 2015) did for words. The pretrained part fills the table's first columns; the rest
keep their random start, so an n-gram can still learn what its words' mean does not say
("not good").
"""

import logging

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.modules.token_embedders.embedding import EmbeddingsTextFile

logger = logging.getLogger(__name__)


def read_word_vectors(path: str, words: set[str]) -> dict[str, torch.Tensor]:
    """The vectors of `words` found in a GloVe-style text file (plain or .gz, one `word v1 ... vd`
    a line; AllenNLP's reader). Lines with the wrong number of values are skipped with a warning."""
    vectors: dict[str, torch.Tensor] = {}
    dim = None
    skipped = 0
    with EmbeddingsTextFile(path) as lines:
        for line in lines:
            word, _, rest = line.rstrip().partition(" ")
            if word not in words:
                continue
            values = rest.split(" ")
            if dim is None:
                dim = len(values)
            if len(values) != dim:
                skipped += 1
                continue
            vectors[word] = torch.tensor([float(v) for v in values])
    if skipped:
        logger.warning("%s: skipped %d lines whose vector does not have %d values", path, skipped, dim)
    return vectors


def ngram_vectors(ngrams: list[str], path: str, embedding_dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(len(ngrams), d) mean word vector of each n-gram (space-separated words) and a (len(ngrams),)
    bool mask of the n-grams with at least one known word; d is the file's dimension, which must
    not exceed `embedding_dim`."""
    words = {word for ngram in ngrams for word in ngram.split(" ")}
    vectors = read_word_vectors(path, words)
    if not vectors:
        raise ConfigurationError(
            f"pretrained_file {path}: none of the n-grams' {len(words)} words has a vector "
            "there (is it a GloVe-style text file of lower-cased words?)"
        )
    dim = len(next(iter(vectors.values())))
    if dim > embedding_dim:
        raise ConfigurationError(
            f"pretrained_file {path} has {dim}-d vectors; embedding_dim must be >= {dim}, got {embedding_dim}"
        )
    table = torch.zeros(len(ngrams), dim)
    known = torch.zeros(len(ngrams), dtype=torch.bool)
    for row, ngram in enumerate(ngrams):
        found = [vectors[word] for word in ngram.split(" ") if word in vectors]
        if found:
            table[row] = torch.stack(found).mean(0)
            known[row] = True
    logger.info(
        "pretrained_file %s: %d of %d n-grams start from their words' vectors", path, int(known.sum()), len(ngrams)
    )
    return table, known


def initialise_from_word_vectors(weight: torch.Tensor, ngrams: list[str], path: str, init_std: float) -> int:
    """Write the n-grams' mean word vectors into the first columns of `weight` (row i is ngrams[i];
    an empty string marks a row to leave alone, e.g. padding), rescaled so their standard deviation
    equals `init_std`, the random part's. Returns how many rows were set."""
    table, known = ngram_vectors(ngrams, path, weight.shape[1])
    if not known.any():
        return 0
    scale = init_std / table[known].std().clamp_min(1e-12)
    with torch.no_grad():
        rows = known.nonzero().squeeze(1)
        weight[rows, : table.shape[1]] = table[rows] * scale
    return int(known.sum())
