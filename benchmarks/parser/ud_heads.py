"""A raw-text parser with the LEMMA / FEATS / XPOS heads on UD English-EWT test: the CoNLL 2018
scores of the full UD output, and what the heads cost in runtime speed.

    python -m benchmarks.parser.ud_heads ARCHIVE [--work-dir runs/ud_heads/bench] [--speed-lines 1000]
        [--split test|dev] [--lemma-lexicon TRAIN.conllu] [--previous LABEL]

The archive (trained e.g. from training_configs/parser/ud_ewt_raw_text_small_ud_heads.jsonnet) is
exported twice: as it is, and with its extra heads removed (the same weights otherwise, so the
same trees), which is the graph a head-less model of the same size runs. Accuracy: each gold test
sentence's text is parsed as a line (spaCy tokenizes it and may split it) by the runtime, int8 and
fp32, and the CoNLL-U it writes is scored by the shared task's script (`green_nlp.evaluation.conll18`),
LEMMA, UFeats, XPOS and MLAS among it; and from the gold words (gold tokenization), for reference.
Where the folder has a (form, UPOS) -> lemma dictionary (`green_nlp.runtime.lemma_lexicon`: from an
archive that carries it, or built from `--lemma-lexicon` the training file) every row is also scored
with the dictionary off ("no lemma dictionary"), so its effect is measured on the same graph.
`--tokenizer-rules` gives both folders the tokenizer rules learned from EWT train (`allennlp
green-learn-tokenizer`), as the shipped parser's folder has them. `--split dev` scores EWT dev
instead (for choices; results `parser_ud_heads_dev.*`); `--previous
LABEL` keeps the rows of the results file it replaces, prefixed with LABEL.
Speed: tokens per second of the two int8 graphs on one thread over the first `--speed-lines` test
texts, alternating the graphs `--repeats` times and keeping each one's best.
Results: benchmarks/results/parser_ud_heads.{json,md}.
"""

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import conllu

from benchmarks.common import RESULTS, hardware_description, write_results
from green_nlp.evaluation.conll18 import Conll18Scores, score_conllu
from green_nlp.settings import data_path

COLUMNS = ["tokens_f1", "words_f1", "upos", "xpos", "ufeats", "lemmas", "las", "clas", "mlas", "blex"]


def export_pair(archive: Path, work_dir: Path) -> tuple[Path, Path]:
    """(folder with the heads, folder of the same model with its extra heads removed)."""
    from torch import nn

    from green_nlp.export import export_archive
    from green_nlp.export.character_split import split_character_encoder
    from green_nlp.export.common import load_for_export, quantize_int8
    from green_nlp.export.parser import export
    from green_nlp.runtime.folder_schema import LENGTHS_KEY, exported_lengths
    from green_nlp.runtime.model_folder import record_file_hashes

    with_heads = export_archive(archive, work_dir / "with_heads")
    model, config = load_for_export(archive)
    model.extra_heads = nn.ModuleDict()
    model.lemma_lexicon = None  # the lemma dictionary serves the LEMMA head only
    without = work_dir / "without_heads"
    without.mkdir(parents=True, exist_ok=True)
    meta = json.loads((with_heads / "green_model.json").read_text(encoding="utf-8"))
    meta.pop("sha256", None)
    meta.pop("lemma_lexicon", None)
    meta.pop("lemma_head", None)  # with a dictionary, `with_heads` has its lemma head in a graph of its own
    meta.update(export(model, config, without))
    meta[LENGTHS_KEY] = exported_lengths(meta)  # its own label lists: the extra heads' are gone
    quantize_int8(without / "model.onnx", without / "model.int8.onnx")
    (without / "green_model.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    record_file_hashes(without)
    split_character_encoder(without)  # as export_archive leaves `with_heads`
    return with_heads, without


def scores(gold_path: Path, predicted: Path) -> dict[str, float]:
    official: Conll18Scores = score_conllu(gold_path, predicted)
    return {
        "tokens_f1": official.tokens,
        "words_f1": official.words,
        "uas": official.uas,
        "upos": official.upos,
        "xpos": official.xpos,
        "ufeats": official.ufeats,
        "lemmas": official.lemmas,
        "las": official.las,
        "clas": official.clas,
        "mlas": official.mlas,
        "blex": official.blex,
    }


def raw_text_scores(model: Any, gold: list[conllu.TokenList], gold_path: Path, out: Path) -> dict[str, float]:
    texts = [sentence.metadata["text"] for sentence in gold]
    with open(out, "w", encoding="utf-8") as handle:
        for doc in model.parse_many(texts):
            handle.write(doc.to_conllu())
    return scores(gold_path, out)


def gold_token_scores(model: Any, gold: list[conllu.TokenList], gold_path: Path, out: Path) -> dict[str, float]:
    inputs = [([t["form"] for t in sentence if isinstance(t["id"], int)], None) for sentence in gold]
    with open(out, "w", encoding="utf-8") as handle:
        for sentence in model.parse_sentences(inputs):
            handle.write(sentence.to_conllu())
    return scores(gold_path, out)


def tokens_per_second(models: dict[str, Any], texts: list[str], repeats: int) -> dict[str, float]:
    """Best tokens/s of each model over `repeats` alternating passes (one thread each)."""
    tokens = sum(len(s.words) for doc in next(iter(models.values())).parse_many(texts) for s in doc)
    for model in models.values():  # warm up: first-call allocations and caches out of the timing
        for _doc in model.parse_many(texts[:50]):
            pass
    best = dict.fromkeys(models, 0.0)
    for _ in range(repeats):
        for name, model in models.items():
            start = time.perf_counter()
            for _doc in model.parse_many(texts):
                pass
            best[name] = max(best[name], tokens / (time.perf_counter() - start))
    return best


def accuracy_rows(with_heads: Path, gold: list[conllu.TokenList], gold_path: Path) -> dict[str, dict[str, Any]]:
    """Raw-text and gold-token rows for int8 and fp32, each also without the lemma dictionary if the folder has one."""
    from green_nlp.runtime import load

    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for precision in ("int8", "fp32"):
            model = load(with_heads, precision=precision, threads=1)
            lexicon = model.lemma_lexicon
            for suffix, used in (("", lexicon), (", no lemma dictionary", None)):
                if suffix and lexicon is None:
                    continue
                model.lemma_lexicon = used
                raw = raw_text_scores(model, gold, gold_path, Path(folder) / "raw.conllu")
                rows[f"{precision}, raw text{suffix}"] = raw
                tokens = gold_token_scores(model, gold, gold_path, Path(folder) / "gold.conllu")
                rows[f"{precision}, gold tokens{suffix}"] = tokens
    return rows


def previous_rows(path: Path, label: str) -> dict[str, dict[str, Any]]:
    """The rows of an earlier results file, prefixed with `label` (rows already prefixed kept as they are)."""
    if not path.is_file():
        return {}
    old = json.loads(path.read_text(encoding="utf-8"))
    return {(key if ": " in key else f"{label}: {key}"): row for key, row in old.get("rows", {}).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", type=Path)
    parser.add_argument("--work-dir", type=Path, default=Path("runs/ud_heads/bench"))
    parser.add_argument("--speed-lines", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    parser.add_argument("--split", choices=("test", "dev"), default="test")
    parser.add_argument("--lemma-lexicon", type=Path, help="training CoNLL-U to build the lemma dictionary from")
    parser.add_argument("--previous", help="keep the replaced results file's rows, prefixed with this label")
    parser.add_argument(
        "--tokenizer-rules",
        action="store_true",
        help="give both folders the tokenizer rules learned from EWT train (as the shipped en-ewt-parser has)",
    )
    args = parser.parse_args()
    from green_nlp.export.lemma_lexicon import add_to_folder
    from green_nlp.runtime import load
    from green_nlp.runtime.lemma_lexicon import LemmaLexicon

    gold_path = data_path("ud", "UD_English-EWT", f"en_ewt-ud-{args.split}.conllu")
    if not gold_path.is_file():
        raise SystemExit(f"UD English-EWT {args.split} not found at {gold_path}: set GREEN_NLP_DATA")
    with open(gold_path, encoding="utf-8") as handle:
        gold = list(conllu.parse_incr(handle))
    with_heads, without = export_pair(args.archive, args.work_dir)
    if args.lemma_lexicon is not None:
        add_to_folder(with_heads, LemmaLexicon.from_conllu(args.lemma_lexicon))
    if args.tokenizer_rules:
        from green_nlp.commands import green_learn_tokenizer

        ewt = data_path("ud", "UD_English-EWT")
        rules = green_learn_tokenizer.learn_tokenizer(
            ewt / "en_ewt-ud-train.conllu", ewt / "en_ewt-ud-dev.conllu", "en", {}
        )
        for folder in (with_heads, without):
            green_learn_tokenizer.add_to_folder(folder, rules)
    name = "parser_ud_heads" if args.split == "test" else f"parser_ud_heads_{args.split}"
    rows = previous_rows(args.output_dir / f"{name}.json", args.previous) if args.previous else {}
    rows.update(accuracy_rows(with_heads, gold, gold_path))
    dictionary = json.loads((with_heads / "green_model.json").read_text(encoding="utf-8")).get("lemma_lexicon")
    texts = [sentence.metadata["text"] for sentence in gold[: args.speed_lines]]
    graphs = {
        name: load(path, precision="int8", threads=1) for name, path in (("with", with_heads), ("without", without))
    }
    if graphs["with"].lemma_lexicon is not None:  # the dictionary's own cost: the same graph without it
        graphs["with, no dictionary"] = load(with_heads, precision="int8", threads=1)
        graphs["with, no dictionary"].lemma_lexicon = None
    speed = tokens_per_second(graphs, texts, args.repeats)
    cost = 100.0 * (1.0 - speed["with"] / speed["without"])
    dictionary_cost = (
        100.0 * (1.0 - speed["with"] / speed["with, no dictionary"]) if "with, no dictionary" in speed else None
    )
    results = {
        "machine": hardware_description(),
        "archive": str(args.archive),
        "test_file": f"UD English-EWT {args.split}",
        "lemma_lexicon": dictionary,
        "rows": rows,
        "int8_tokens_per_second": {
            "with_heads": speed["with"],
            "without_heads": speed["without"],
            "with_heads_no_dictionary": speed.get("with, no dictionary"),
        },
        "speed_cost_percent": cost,
        "dictionary_speed_cost_percent": dictionary_cost,
        "speed_lines": len(texts),
    }
    note = (
        f"UD English-EWT {args.split}, CoNLL 2018 shared-task scores (F1, %) of `{args.archive.name}` through the "
        "ONNX runtime. raw text: each gold sentence's text as a line; gold tokens: the gold words given. "
        "ufeats: all universal features of a word right; MLAS: CLAS that also needs UPOS, UFeats and the "
        "function-word children right; BLEX: CLAS that also needs the lemma. "
        + (
            f"Lemma dictionary: {dictionary['entries']:,} (form, UPOS) entries from the training file, "
            "consulted before the edit script; 'no lemma dictionary' rows: the same graph without it. "
            if dictionary
            else ""
        )
        + (f"Rows prefixed '{args.previous}:' are the earlier results this run replaced. " if args.previous else "")
        + "Speed, int8, one thread, "
        f"{len(texts)} raw-text lines, best of {args.repeats}: {speed['with']:,.0f} tokens/s with the "
        f"heads{' and dictionary' if dictionary else ''}, {speed['without']:,.0f} without (the same model, "
        "heads removed before export): "
        f"a cost of {cost:.1f} % of tokens/s"
        + (
            f"; the dictionary alone: {speed['with, no dictionary']:,.0f} tokens/s without it on the same graph, "
            f"a cost of {dictionary_cost:.1f} %"
            if dictionary_cost is not None
            else ""
        )
        + ". Produced by `python -m benchmarks.parser.ud_heads`."
    )
    write_results(args.output_dir, name, results, rows, COLUMNS, note, first_column="graph, input")


if __name__ == "__main__":
    main()
