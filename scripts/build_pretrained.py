"""Build a shipped model: train it on real data, export it, measure it, write its card.

    python scripts/build_pretrained.py en-ewt-parser            # trains into runs/pretrained/ if needed
    python scripts/build_pretrained.py en-ewt-parser --archive runs/pretrained/en-ewt-parser/model.tar.gz

Writes `pretrained/<name>/`: the ONNX graph (int8 alone where it agrees with fp32 on at
least 99.5 % of the dev words' heads and labels, else fp32 alone, to stay within the 12 MB budget),
`green_model.json` and `README.md`, the model card. Every figure on the card is measured here, by
`allennlp train` (test scores of the torch model) and by the runtime on the same test file.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

REPO = Path(__file__).resolve().parents[1]
PRETRAINED = REPO / "pretrained"
AGREEMENT_FOR_INT8 = 0.995
FOLDER_BUDGET_BYTES = 12 * 1000 * 1000


@dataclass(frozen=True)
class ShippedParser:
    name: str
    config: str
    treebank: str  # under $GREEN_NLP_DATA/ud/
    prefix: str
    title: str
    license: str
    data_lines: Tuple[str, ...]


SHIPPED = {
    "en-ewt-parser": ShippedParser(
        name="en-ewt-parser",
        config="training_configs/parser/ud_ewt_raw_text_small.jsonnet",
        treebank="UD_English-EWT", prefix="en_ewt-ud-",
        title="en-ewt-parser: English dependency parser for raw text (UD English-EWT)",
        license="CC BY-SA 4.0 (the model is trained on UD English-EWT, CC BY-SA 4.0; GloVe 6B vectors, PDDL 1.0)",
        data_lines=(
            "UD English-EWT (UniversalDependencies/UD_English-EWT, v2 guidelines): train 12,544 sentences, "
            "dev 2,001, test 2,077 (25,094 words)",
            "GloVe 6B 50-d word vectors (Stanford NLP), used to initialise the word embeddings",
        ),
    ),
}


def data_dir() -> Path:
    sys.path.insert(0, str(REPO))
    from green_nlp.data_paths import data_dir as configured

    return configured().resolve()


def train(model: ShippedParser, run_dir: Path) -> Path:
    """`allennlp train` into run_dir (resumed with -r when it holds a run); returns the archive."""
    archive = run_dir / "model.tar.gz"
    if archive.exists():
        return archive
    command = [str(Path(sys.executable).parent / "allennlp"), "train", model.config, "-s", str(run_dir),
               "--include-package", "green_nlp"]
    if (run_dir / "config.json").exists():
        command.append("-r")
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    subprocess.run(command, cwd=REPO, check=True, env=env)
    return archive


def conllu_sentences(path: Path) -> List[Tuple[List[str], List[int], List[str]]]:
    """(words, gold heads, gold relations) per sentence, skipping multiword tokens and empty nodes."""
    import conllu

    sentences = []
    with open(path, encoding="utf-8") as handle:
        for sentence in conllu.parse_incr(handle):
            tokens = [token for token in sentence if isinstance(token["id"], int)]
            sentences.append(([t["form"] for t in tokens], [t["head"] for t in tokens], [t["deprel"] for t in tokens]))
    return sentences


def score_runtime(folder: Path, precision: str, sentences: Sequence[Tuple[List[str], List[int], List[str]]]
                  ) -> Dict[str, float]:
    """UAS / LAS (all words, full relations) of the runtime on gold tokens, and tokens/s on one thread."""
    from green_nlp.runtime import load

    nlp = load(folder, precision=precision, threads=1)
    inputs = [(words, None) for words, _, _ in sentences]
    start = time.perf_counter()
    parsed = list(nlp.parse_sentences(inputs, 32))
    seconds = time.perf_counter() - start
    words = heads = arcs = 0
    for result, (_, gold_heads, gold_rels) in zip(parsed, sentences):
        for head, rel, gold_head, gold_rel in zip(result.heads, result.deprels, gold_heads, gold_rels):
            words += 1
            heads += head == gold_head
            arcs += head == gold_head and rel == gold_rel
    return {"UAS": 100 * heads / words, "LAS": 100 * arcs / words, "tokens_per_s": words / seconds,
            "sentences_per_s": len(sentences) / seconds, "words": words}


def raw_lines(path: Path, count: int) -> List[str]:
    """The `# text` of the first `count` sentences of a CoNLL-U file: real raw text to parse."""
    import conllu

    with open(path, encoding="utf-8") as handle:
        return [sentence.metadata["text"] for sentence, _ in zip(conllu.parse_incr(handle), range(count))]


def allennlp_equality(archive: Path, folder: Path, lines: List[str]) -> Dict[str, Any]:
    """How many raw-text lines the runtime (fp32) parses exactly as the AllenNLP predictor does:
    the same sentences, words, heads, relations and UPOS, as JSON records."""
    from allennlp.predictors import Predictor

    from green_nlp.runtime import load

    predictor = Predictor.from_path(str(archive), "green_dependency_parser")
    expected = [predictor.predict_json(predictor.load_line(line)) for line in lines]
    got = [doc.to_json() for doc in load(folder, precision="fp32", threads=1).parse_many(lines, batch_size=32)]
    same = sum(a == b for a, b in zip(got, expected))
    return {"lines": len(lines), "identical": same, "all_identical": same == len(lines)}


def keep_one_graph(folder: Path, precision: str) -> None:
    """Drop the other graph and say so in green_model.json."""
    meta_path = folder / "green_model.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    dropped = "fp32" if precision == "int8" else "int8"
    (folder / meta["files"][dropped]).unlink()
    meta["files"] = {precision: meta["files"][precision]}
    meta_path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_card(model: ShippedParser, folder: Path, figures: Dict[str, Any]) -> Path:
    shipped = figures["shipped_precision"]
    runtime = figures["runtime"][shipped]
    torch_test = figures["allennlp_test"]
    agreement = figures["int8_agreement_dev"]
    lines = [
        f"# {model.title}",
        "",
        "Parses raw English text (tokenized and split into sentences by spaCy's rule-based English",
        "tokenizer and sentencizer) into Universal Dependencies trees with UPOS tags, without a",
        "separate tagger. A biaffine parser (words + character CNN -> 3-layer BiLSTM -> biaffine arc",
        f"and label scorers, a joint UPOS head; {figures['parameters']:,} parameters), exported to ONNX",
        f"and run by `green_nlp.runtime` (no torch). Shipped graph: **{shipped}**.",
        "",
        "```python",
        "import green_nlp",
        f'nlp = green_nlp.load("{model.name}")',
        'print(nlp.parse("The cat sat on the mat.").to_conllu())',
        "```",
        "",
        "## Data",
        *[f"- {line}" for line in model.data_lines],
        f"- License: {model.license}",
        "",
        "## Metrics",
        "",
        f"UD English-EWT test, gold tokenization, all {runtime['words']:,} words (punctuation included), LAS on",
        "full relations with subtypes.",
        "",
        "| metric | value |",
        "|---|---|",
        f"| UAS (runtime, {shipped}) | {runtime['UAS']:.2f} |",
        f"| LAS (runtime, {shipped}) | {runtime['LAS']:.2f} |",
        f"| UAS (torch fp32, allennlp train's test evaluation) | {100 * torch_test['test_UAS']:.2f} |",
        f"| LAS (torch fp32, allennlp train's test evaluation) | {100 * torch_test['test_LAS']:.2f} |",
        f"| UPOS accuracy (torch fp32) | {100 * torch_test['test_upos_accuracy']:.2f} |",
        f"| int8 vs fp32, same head and label (dev words) | {100 * agreement['heads_and_labels']:.2f} % |",
        f"| int8 vs fp32, same head (dev words) | {100 * agreement['heads']:.2f} % |",
        f"| runtime fp32 = AllenNLP predictor, first 500 test lines as raw text | "
        f"{figures['fp32_equals_allennlp_test_500']['identical']} / 500 identical |",
        f"| tokens/s (runtime, {shipped}, 1 thread, batch 32) | {runtime['tokens_per_s']:,.0f} |",
        f"| folder size | {figures['folder_bytes'] / 1e6:.1f} MB |",
        "",
        f"Hardware: {figures['hardware']}. Trained for {figures['epochs']} epochs on one CPU thread.",
        "",
        "## Limits",
        "- Trained without a teacher: the distilled student of the same size is not built yet.",
        "- English web text of the EWT genres (blogs, reviews, e-mail, answers); accuracy falls on other",
        "  domains and on text tokenized differently from spaCy's rules.",
        "- Sentences over the model's maximum length are refused, not truncated.",
        "",
        "## Rebuild",
        "```bash",
        f"python scripts/build_pretrained.py {model.name}   # trains with {model.config}",
        "```",
        "",
    ]
    card = folder / "README.md"
    card.write_text("\n".join(lines), encoding="utf-8")
    return card


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.iterdir() if path.is_file())


def hardware() -> str:
    """The benchmarks' description of this machine (CPU, cores, torch)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from common import hardware_description

    return hardware_description()


def build(model: ShippedParser, archive: Optional[Path]) -> Dict[str, Any]:
    import green_nlp
    from allennlp.models.archival import load_archive

    from green_nlp.export.common import export_archive, read_model_card
    from green_nlp.runtime.parser_agreement import int8_agreement

    green_nlp.register()
    data = data_dir() / "ud" / model.treebank
    if not data.is_dir():
        raise SystemExit(f"{data} not found: set GREEN_NLP_DATA to the shared data folder")
    archive = archive or train(model, REPO / "runs" / "pretrained" / model.name)
    run_dir = archive.parent
    metrics = json.loads((run_dir / "metrics.json").read_text())
    with tempfile.TemporaryDirectory() as scratch:
        exported = export_archive(archive, Path(scratch) / model.name)
        dev = conllu_sentences(data / f"{model.prefix}dev.conllu")
        test = conllu_sentences(data / f"{model.prefix}test.conllu")
        equality = allennlp_equality(archive, exported, raw_lines(data / f"{model.prefix}test.conllu", 500))
        agreement = int8_agreement(exported, [(words, None) for words, _, _ in dev], threads=1)
        runtime = {precision: score_runtime(exported, precision, test) for precision in ("fp32", "int8")}
        shipped = "int8" if agreement["heads_and_labels"] >= AGREEMENT_FOR_INT8 else "fp32"
        keep_one_graph(exported, shipped)
        parameters = sum(p.numel() for p in load_archive(str(archive)).model.parameters())
        figures: Dict[str, Any] = {
            "name": model.name, "archive_sha256": json.loads((exported / "green_model.json").read_text())[
                "source_archive_sha256"],
            "allennlp_test": {key: metrics[key] for key in ("test_UAS", "test_LAS", "test_upos_accuracy")},
            "epochs": metrics["epoch"] + 1, "int8_agreement_dev": agreement,
            "runtime": runtime, "fp32_equals_allennlp_test_500": equality, "shipped_precision": shipped,
            "parameters": parameters, "hardware": hardware(),
        }
        figures["folder_bytes"] = folder_bytes(exported)
        card = write_card(model, exported, figures)
        meta_path = exported / "green_model.json"
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta["card"] = read_model_card(card)
        meta_path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        figures["folder_bytes"] = folder_bytes(exported)
        if figures["folder_bytes"] > FOLDER_BUDGET_BYTES:
            raise SystemExit(f"{model.name}: {figures['folder_bytes']:,} bytes is over the 12 MB budget")
        target = PRETRAINED / model.name
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(exported, target)
    write_results(figures)
    return figures


def results_markdown(figures: Dict[str, Any]) -> str:
    """The shipped model's figures as a short table (the JSON beside it holds them all)."""
    shipped, agreement = figures["shipped_precision"], figures["int8_agreement_dev"]
    equality = figures["fp32_equals_allennlp_test_500"]
    rows = ["| form | UAS | LAS | tokens/s (1 thread, batch 32) |", "|---|---|---|---|",
            f"| torch fp32 (allennlp train's test evaluation) | {100 * figures['allennlp_test']['test_UAS']:.2f} | "
            f"{100 * figures['allennlp_test']['test_LAS']:.2f} | |"]
    for precision, runtime in figures["runtime"].items():
        mark = " (shipped)" if precision == shipped else ""
        rows.append(f"| runtime {precision}{mark} | {runtime['UAS']:.2f} | {runtime['LAS']:.2f} | "
                    f"{runtime['tokens_per_s']:,.0f} |")
    return "\n".join(rows) + (
        f"\n\n{figures['name']}: UD English-EWT test, gold tokens, all words; {figures['parameters']:,} parameters, "
        f"{figures['folder_bytes'] / 1e6:.1f} MB folder. int8 vs fp32 on dev words: "
        f"{100 * agreement['heads_and_labels']:.2f} % same head and label. Runtime fp32 = AllenNLP predictor on "
        f"{equality['identical']} of {equality['lines']} test lines as raw text. {figures['hardware']}.\n")


def write_results(figures: Dict[str, Any]) -> None:
    stem = REPO / "benchmarks" / "results" / f"pretrained_{figures['name'].replace('-', '_')}"
    stem.with_suffix(".json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    stem.with_suffix(".md").write_text(results_markdown(figures), encoding="utf-8")
    print(results_markdown(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=sorted(SHIPPED))
    parser.add_argument("--archive", type=Path, help="an archive already trained with the model's config")
    parser.add_argument("--tables-only", action="store_true",
                        help="only rewrite the Markdown table from the saved results JSON")
    args = parser.parse_args()
    if args.tables_only:
        saved = REPO / "benchmarks" / "results" / f"pretrained_{args.name.replace('-', '_')}.json"
        write_results(json.loads(saved.read_text(encoding="utf-8")))
        return
    build(SHIPPED[args.name], args.archive)


if __name__ == "__main__":
    main()
