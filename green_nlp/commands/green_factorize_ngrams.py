"""`allennlp green-factorize-ngrams`: shrink a trained n-gram DAN's table by rank, keeping every n-gram.

    allennlp green-factorize-ngrams runs/dan/sst2/kd/model.tar.gz --rank 16 --output runs/dan/sst2/kd_r16.tar.gz

Why this is exact up to the rank: the DAN's first layer is `relu(W @ mean(E[ngrams]) + b)`, and the
mean commutes with `W`, so the table E (N x d) only ever acts through P = E @ W.T (N x hidden).
Replacing P by its best rank-r approximation U_r S_r V_r^T (truncated SVD, Eckart-Young) gives a
DAN of embedding_dim r: table A = U_r S_r (N x r), first layer weight V_r (hidden x r), the same
bias, activation and output layer. By default the singular values move into the first layer
instead (table sqrt(N) U_r, weight V_r S_r / sqrt(N): the same product, and table columns that
share one int8 scale well). At r >= rank(P) the predictions are unchanged; below it each text's
pre-activations are those of the best rank-r P.

Unlike `green-prune-ngrams`, which drops rare n-grams (the long tail, which carries much of a DAN's
accuracy), this keeps every n-gram and narrows each row; the two compose (prune, then factorize,
or the other way round). The result is an ordinary archive: the config says `embedding_dim: r` and
the old `hidden_dim`, the vocabulary is unchanged, so it reloads from its config, exports with
`allennlp green-export` and runs in `green_nlp.runtime` like any DAN.
"""

import argparse
import logging
from typing import Any

import torch
from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive

from green_nlp.commands.archive_writing import check_output_archive, write_archive
from green_nlp.models.ngram_dan import NgramDan

logger = logging.getLogger(__name__)

TABLE_KEY = "ngram_embedding.weight"
FIRST_LAYER_KEY = "hidden.weight"


@Subcommand.register("green-factorize-ngrams")
class GreenFactorizeNgrams(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Replace an n-gram DAN's table by a rank-R factorization (every n-gram kept); writes an archive."
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("archive_file", help="the DAN's model.tar.gz")
        subparser.add_argument("--rank", type=int, required=True, help="the new embedding_dim (1 .. current - 1)")
        subparser.add_argument("--output", required=True, help="the factorized model.tar.gz to write")
        subparser.add_argument(
            "--singular-values-in-table",
            action="store_true",
            help="table U_r S_r and first layer V_r (default: unit-RMS table columns, kinder to int8 export)",
        )
        subparser.set_defaults(
            func=lambda args: factorize_archive(
                args.archive_file, args.rank, args.output, unit_columns=not args.singular_values_in_table
            )
        )
        return subparser


def low_rank_factors(
    table: torch.Tensor, weight: torch.Tensor, rank: int, unit_columns: bool = True
) -> tuple[torch.Tensor, torch.Tensor]:
    """(A, V) with A @ V.T the best rank-`rank` approximation of `table @ weight.T` (rows x hidden).

    With `unit_columns`, A = sqrt(rows) U_r (every column of RMS 1) and V = V_r S_r / sqrt(rows):
    int8 export quantizes the table with one scale for the whole tensor, which A = U_r S_r (columns
    shrinking with the singular values) would spend on its first columns. Otherwise A = U_r S_r,
    V = V_r. Computed in float64, so full rank reproduces the original to float32 precision; row 0
    (padding, never part of a mean) is taken as zeros."""
    product = table.double() @ weight.double().T
    product[0] = 0.0
    left, singular, right_t = torch.linalg.svd(product, full_matrices=False)
    left, singular, right = left[:, :rank], singular[:rank], right_t[:rank].T
    if unit_columns:
        scale = float(product.shape[0]) ** 0.5
        factor_table, factor_weight = left * scale, right * (singular / scale)
    else:
        factor_table, factor_weight = left * singular, right
    return factor_table.to(table.dtype).contiguous(), factor_weight.to(weight.dtype).contiguous()


def factorized_config(config: dict[str, Any], rank: int, hidden_dim: int) -> dict[str, Any]:
    """The model's config with the narrower table and the old hidden size spelled out (it defaults to
    embedding_dim). `pretrained_file` and `initializer` go: the factors are the only source of weights."""
    model = dict(config["model"], embedding_dim=rank, hidden_dim=hidden_dim)
    model.pop("pretrained_file", None)
    model.pop("initializer", None)
    return dict(config, model=model)


def factorize_archive(archive_file: str, rank: int, output: str, unit_columns: bool = True) -> str:
    """Write `output`: the DAN of `archive_file` with its table factorized at `rank` (see
    `low_rank_factors` for `unit_columns`)."""
    check_output_archive(output, archive_file)
    archive = load_archive(archive_file)
    model = archive.model
    if not isinstance(model, NgramDan):
        raise ConfigurationError(f"{archive_file} is not an n-gram DAN (green_ngram_dan): {type(model).__name__}")
    width = model.ngram_embedding.embedding_dim
    if not 1 <= rank < width:
        raise ConfigurationError(f"--rank must be in 1..{width - 1} (below the table's width {width}), got {rank}")
    state = model.state_dict()
    state[TABLE_KEY], state[FIRST_LAYER_KEY] = low_rank_factors(
        state[TABLE_KEY], state[FIRST_LAYER_KEY], rank, unit_columns
    )
    config = factorized_config(archive.config.as_dict(quiet=True), rank, model.hidden.out_features)
    write_archive(config, model.vocab, state, output)
    logger.info("factorized the %d x %d table at rank %d -> %s", state[TABLE_KEY].shape[0], width, rank, output)
    return output
