"""`allennlp green-prune-ngrams`: shrink a trained n-gram DAN by dropping its least frequent n-grams
(the seed paper's Figure 5: accuracy vs model size after training).

    allennlp green-prune-ngrams runs/dan/sst2/kd/model.tar.gz --keep 10000 --output runs/dan/sst2/kd_10k.tar.gz

Frequency is the vocabulary's own order (counts over train + unlabeled text) or, with
`--frequency-file`, counts over that file (the paper found the task's train set a better guide).
The result is an ordinary archive: its config is unchanged and its vocabulary and embedding
table are cut to match, so it reloads from the config like any other. A text keeps its
prediction exactly when all its n-grams are kept.
"""

import argparse
import logging
from collections import Counter
from typing import Optional

import torch
from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive

from green_nlp.commands.archive_writing import check_output_archive, write_archive
from green_nlp.dataset_readers.text_classification import read_examples

logger = logging.getLogger(__name__)

EMBEDDING_KEY = "ngram_embedding.weight"


@Subcommand.register("green-prune-ngrams")
class GreenPruneNgrams(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Keep an n-gram DAN's most frequent n-grams only; writes a smaller archive."
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("archive_file", help="the DAN's model.tar.gz")
        subparser.add_argument("--keep", type=int, required=True, help="number of n-grams to keep")
        subparser.add_argument("--output", required=True, help="the pruned model.tar.gz to write")
        subparser.add_argument(
            "--frequency-file", default=None, help="rank n-grams by their counts in this classification file instead"
        )
        subparser.set_defaults(
            func=lambda args: prune_archive(args.archive_file, args.keep, args.output, args.frequency_file)
        )
        return subparser


def ranked_ngram_ids(ngrams: list[str], analyzer, frequency_file: Optional[str]) -> list[int]:
    """Vocabulary ids (from 2) most frequent first: vocabulary order, or counts in `frequency_file`
    (ties, and n-grams absent from it, keep vocabulary order)."""
    ids = list(range(2, len(ngrams) + 2))
    if frequency_file is None:
        return ids
    counts: Counter = Counter()
    for example in read_examples(frequency_file):
        counts.update(analyzer(example.text))
    return sorted(ids, key=lambda i: -counts.get(ngrams[i - 2], 0))


def prune_archive(archive_file: str, keep: int, output: str, frequency_file: Optional[str] = None) -> str:
    check_output_archive(output, archive_file)
    archive = load_archive(archive_file)
    model = archive.model
    namespace = getattr(model, "_ngram_namespace", None)
    state = model.state_dict()
    if namespace is None or EMBEDDING_KEY not in state:
        raise ConfigurationError(f"{archive_file} is not an n-gram DAN (no {EMBEDDING_KEY})")
    vocab = model.vocab
    size = vocab.get_vocab_size(namespace) - 2
    if not 0 < keep <= size:
        raise ConfigurationError(f"--keep must be in 1..{size} (the archive's n-gram count), got {keep}")
    ngrams = [vocab.get_token_from_index(i, namespace) for i in range(2, size + 2)]
    analyzer = archive.dataset_reader.analyzer  # type: ignore[attr-defined]  # an n-gram DAN's reader
    kept_ids = ranked_ngram_ids(ngrams, analyzer, frequency_file)[:keep]
    if frequency_file is None:
        kept_ids.sort()  # already a prefix: keep the frequency order
    rows = torch.tensor([0, 1] + kept_ids)
    state[EMBEDDING_KEY] = state[EMBEDDING_KEY][rows].clone()
    vocab._token_to_index[namespace] = {vocab._padding_token: 0, vocab._oov_token: 1}
    vocab._index_to_token[namespace] = {0: vocab._padding_token, 1: vocab._oov_token}
    vocab.add_tokens_to_namespace([ngrams[i - 2] for i in kept_ids], namespace)
    write_archive(archive.config.as_dict(quiet=True), vocab, state, output)
    logger.info("kept %d of %d n-grams -> %s", keep, size, output)
    return output
