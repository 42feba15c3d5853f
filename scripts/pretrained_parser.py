"""The recipe of the shipped raw-text parser `en-ewt-parser` (run through scripts/build_pretrained.py):
train on UD English-EWT, export, measure with the runtime on the test set, write the card.

Every figure on the card is measured here, by `allennlp train` (test scores of the torch model) and
by the runtime on the same test file. The int8 graph ships alone where it agrees with fp32 on at least
99.5 % of the dev words' heads and labels, else fp32 alone, to stay within the 12 MB budget.
"""

import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from pretrained_common import (
    AGREEMENT_FOR_INT8,
    REPO,
    data_dir,
    finish_folder,
    folder_bytes,
    hardware,
    keep_one_graph,
    train,
    write_card_file,
    write_results,
)


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
        treebank="UD_English-EWT",
        prefix="en_ewt-ud-",
        title="en-ewt-parser: English dependency parser for raw text (UD English-EWT)",
        license="CC BY-SA 4.0 (the model is trained on UD English-EWT, CC BY-SA 4.0; GloVe 6B vectors, PDDL 1.0)",
        data_lines=(
            "UD English-EWT (UniversalDependencies/UD_English-EWT, v2 guidelines): train 12,544 sentences, "
            "dev 2,001, test 2,077 (25,094 words)",
            "GloVe 6B 50-d word vectors (Stanford NLP), used to initialise the word embeddings",
        ),
    ),
}


def conllu_sentences(path: Path) -> List[Tuple[List[str], List[int], List[str]]]:
    """(words, gold heads, gold relations) per sentence, skipping multiword tokens and empty nodes."""
    import conllu

    sentences = []
    with open(path, encoding="utf-8") as handle:
        for sentence in conllu.parse_incr(handle):
            tokens = [token for token in sentence if isinstance(token["id"], int)]
            sentences.append(([t["form"] for t in tokens], [t["head"] for t in tokens], [t["deprel"] for t in tokens]))
    return sentences


def score_runtime(
    folder: Path, precision: str, sentences: Sequence[Tuple[List[str], List[int], List[str]]]
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
    return {
        "UAS": 100 * heads / words,
        "LAS": 100 * arcs / words,
        "tokens_per_s": words / seconds,
        "sentences_per_s": len(sentences) / seconds,
        "words": words,
    }


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
    ]
    return write_card_file(folder, model.name, lines, f"trains with {model.config}")


def build(model: ShippedParser, archive: Optional[Path]) -> Dict[str, Any]:
    from allennlp.models.archival import load_archive

    import green_nlp
    from green_nlp.export.common import export_archive
    from green_nlp.runtime.parser_agreement import int8_agreement

    green_nlp.register()
    data = data_dir() / "ud" / model.treebank
    if not data.is_dir():
        raise SystemExit(f"{data} not found: set GREEN_NLP_DATA to the shared data folder")
    archive = archive or train(model.config, REPO / "runs" / "pretrained" / model.name)
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
            "name": model.name,
            "archive_sha256": json.loads((exported / "green_model.json").read_text())["source_archive_sha256"],
            "allennlp_test": {key: metrics[key] for key in ("test_UAS", "test_LAS", "test_upos_accuracy")},
            "epochs": metrics["epoch"] + 1,
            "int8_agreement_dev": agreement,
            "runtime": runtime,
            "fp32_equals_allennlp_test_500": equality,
            "shipped_precision": shipped,
            "parameters": parameters,
            "hardware": hardware(),
        }
        figures["folder_bytes"] = folder_bytes(exported)
        finish_folder(model.name, exported, write_card(model, exported, figures), figures)
    write_results(figures, results_markdown(figures))
    return figures


def results_markdown(figures: Dict[str, Any]) -> str:
    """The shipped model's figures as a short table (the JSON beside it holds them all)."""
    shipped, agreement = figures["shipped_precision"], figures["int8_agreement_dev"]
    equality = figures["fp32_equals_allennlp_test_500"]
    rows = [
        "| form | UAS | LAS | tokens/s (1 thread, batch 32) |",
        "|---|---|---|---|",
        f"| torch fp32 (allennlp train's test evaluation) | {100 * figures['allennlp_test']['test_UAS']:.2f} | "
        f"{100 * figures['allennlp_test']['test_LAS']:.2f} | |",
    ]
    for precision, runtime in figures["runtime"].items():
        mark = " (shipped)" if precision == shipped else ""
        rows.append(
            f"| runtime {precision}{mark} | {runtime['UAS']:.2f} | {runtime['LAS']:.2f} | "
            f"{runtime['tokens_per_s']:,.0f} |"
        )
    return "\n".join(rows) + (
        f"\n\n{figures['name']}: UD English-EWT test, gold tokens, all words; {figures['parameters']:,} parameters, "
        f"{figures['folder_bytes'] / 1e6:.1f} MB folder. int8 vs fp32 on dev words: "
        f"{100 * agreement['heads_and_labels']:.2f} % same head and label. Runtime fp32 = AllenNLP predictor on "
        f"{equality['identical']} of {equality['lines']} test lines as raw text. {figures['hardware']}.\n"
    )
