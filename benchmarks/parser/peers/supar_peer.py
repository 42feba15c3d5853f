"""SuPar (PyPI `supar` 1.1.4, yzhangcs/parser) as a peer parser: train it from scratch on the same
UD data with sizes like green_nlp's teacher, and parse pre-built batches for the speed benchmark.

SuPar is a benchmark-only dependency, installed beside the project venv into runs/peers/site by
`benchmarks/parser/peers/setup_supar.sh` (its declared dependency `stanza` is not needed for CoNLL
input); put that folder on PYTHONPATH for the commands that use it:

    PYTHONPATH=runs/peers/site python -m benchmarks.parser.peers.supar_peer train --out runs/supar_ewt --epochs 2

SuPar saves whole Python objects with `torch.save`, so its own files need `weights_only=False`
loading on current torch; we do that only for the files this script wrote (see `trusted_torch_load`).
"""

import argparse
import contextlib
import gzip
import importlib.util
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch

PEER_SITE = "runs/peers/site"  # where setup_supar.sh installs SuPar, outside the shared project venv

Predictions = dict[tuple[str, ...], list[tuple[list[int], list[str]]]]


def require_supar() -> None:
    """Stop with the way to install SuPar, or to reach it, when it cannot be imported."""
    if importlib.util.find_spec("supar") is None:
        raise SystemExit(
            f"SuPar is not importable: install it with `bash benchmarks/parser/peers/setup_supar.sh` "
            f"and run with PYTHONPATH={PEER_SITE}"
        )


@contextlib.contextmanager
def trusted_torch_load() -> Iterator[None]:
    """SuPar 1.1.4 calls `torch.load(path)`; torch >= 2.6 defaults to weights_only=True, which
    refuses SuPar's pickled fields. Allow full unpickling only inside this block, for our own files."""
    original = torch.load

    def load(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("weights_only", False)
        return original(*args, **kwargs)

    torch.load = load
    try:
        yield
    finally:
        torch.load = original


def plain_text_embeddings(gz_path: Path, out_dir: Path) -> Path:
    """SuPar reads embeddings from plain text only; decompress once into the (ignored) run folder."""
    target = out_dir / gz_path.name.replace(".gz", "")
    if not target.exists():
        with gzip.open(gz_path, "rt", encoding="utf-8") as source, open(target, "w", encoding="utf-8") as sink:
            for line in source:
                sink.write(line)
    return target


def train(args: argparse.Namespace) -> None:
    require_supar()
    from supar import BiaffineDependencyParser

    from green_nlp.settings import data_path

    ewt = data_path("ud", "UD_English-EWT")
    args.out.mkdir(parents=True, exist_ok=True)
    embed = plain_text_embeddings(data_path("emb", "glove.6B.50d.green_nlp_vocab.txt.gz"), args.out)
    torch.set_num_threads(args.threads)
    model_path = str(args.out / "model")
    with trusted_torch_load():
        # Sizes of green_nlp's EWT teacher: gold UPOS 100-d, words 50-d + GloVe 50-d (summed),
        # 3-layer BiLSTM 400 per direction, arc MLP 500, label MLP 100, dropout 0.33.
        parser = BiaffineDependencyParser.build(
            model_path,
            build=True,
            feat=["tag"],
            encoder="lstm",
            train=str(ewt / "en_ewt-ud-train.conllu"),
            embed=str(embed),
            unk=None,  # the GloVe file has no unk entry
            n_embed=50,
            n_pretrained=50,
            n_feat_embed=100,
            n_lstm_hidden=400,
            n_lstm_layers=3,
            n_mlp_arc=500,
            n_mlp_rel=100,
            tree=True,
            proj=False,
            punct=True,
            partial=False,
            checkpoint=False,
            lr=2e-3,
            mu=0.9,
            nu=0.9,
            eps=1e-12,
            weight_decay=0,
            decay=0.75,
            decay_steps=5000,
            verbose=True,
            max_len=None,
            device="cpu",
            local_rank=-1,
        )
        start = time.perf_counter()
        parser.train(
            train=str(ewt / "en_ewt-ud-train.conllu"),
            dev=str(ewt / "en_ewt-ud-dev.conllu"),
            test=str(ewt / "en_ewt-ud-test.conllu"),
            buckets=32,
            batch_size=args.batch_tokens,
            epochs=args.epochs,
            patience=args.epochs,
            clip=5.0,
            update_steps=1,
        )
    minutes = (time.perf_counter() - start) / 60
    (args.out / "training.json").write_text(
        f'{{"epochs": {args.epochs}, "train_minutes": {minutes:.1f}, "batch_tokens": {args.batch_tokens}}}\n'
    )


def load(model_path: Path):
    require_supar()
    from supar import Parser

    with trusted_torch_load():
        parser = Parser.load(str(model_path))
    parser.model.eval()
    return parser


def make_batches(parser, test_file: Path, batch_sentences: int, mean_length: float) -> list[Any]:
    """SuPar batches by tokens; ask for about `batch_sentences` sentences of average length, with
    its own length buckets (its predict default), built outside the timing."""
    from supar.utils import Dataset

    parser.transform.eval()
    dataset = Dataset(parser.transform, str(test_file))
    dataset.build(max(1, int(batch_sentences * mean_length)), n_buckets=8)
    return list(dataset.loader)


def predict(parser, batches: list[Any]) -> tuple[Predictions, float]:
    """Forward pass, tree decoding (MST only where the greedy heads are not a tree, as SuPar does)
    and label lookup per batch; returns predictions keyed by the sentence's words, and seconds."""
    args = parser.args
    predictions: Predictions = {}
    start = time.perf_counter()
    with torch.inference_mode():
        for batch in batches:
            words, texts, *feats = batch
            mask = words.ne(args.pad_index) if words.dim() < 3 else words.ne(args.pad_index).any(-1)
            mask[:, 0] = 0
            lengths = mask.sum(1).tolist()
            s_arc, s_rel = parser.model(words, feats)
            arc_preds, rel_preds = parser.model.decode(s_arc, s_rel, mask, True, False)
            for text, arcs, rels in zip(texts, arc_preds[mask].split(lengths), rel_preds[mask].split(lengths)):
                predictions.setdefault(tuple(text), []).append((arcs.tolist(), parser.REL.vocab[rels.tolist()]))
    return predictions, time.perf_counter() - start


def training_info(run_dir: Path) -> dict[str, Any]:
    """Epochs and minutes, as written by `train` (SuPar itself logs them only as text)."""
    import json

    path = run_dir / "training.json"
    return json.loads(path.read_text()) if path.exists() else {}


def count_parameters(parser) -> int:
    """Trainable parameters (SuPar's frozen pretrained table excluded, like ours)."""
    return sum(p.numel() for p in parser.model.parameters() if p.requires_grad)


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = cli.add_subparsers(dest="command", required=True)
    train_cli = sub.add_parser("train", help="train SuPar's biaffine parser on UD English-EWT")
    train_cli.add_argument("--out", type=Path, default=Path("runs/supar_ewt"))
    train_cli.add_argument("--epochs", type=int, default=2)
    train_cli.add_argument("--batch-tokens", type=int, default=1000)
    train_cli.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "1")))
    args = cli.parse_args()
    if args.command == "train":
        train(args)


if __name__ == "__main__":
    main()
