"""The recipe of the shipped raw-text parser `en-ewt-parser` (run through scripts/build_pretrained.py):
train a gold-UPOS teacher on UD English-EWT, distil raw-text students from it, train the smallest
student without a teacher as the baseline, export them all, pick the shipped one from the
accuracy-speed front, measure it with the runtime on the test set, write the card.

Every figure on the card is measured here, by `allennlp train` (test scores of the torch model) and
by the runtime on the same test file. The int8 graph ships alone where it agrees with fp32 on at least
99.5 % of the dev words' heads and labels, else fp32 alone, to stay within the 12 MB budget.
"""

import json
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from pretrained_common import (
    AGREEMENT_FOR_INT8,
    FOLDER_BUDGET_BYTES,
    REPO,
    data_dir,
    finish_folder,
    folder_bytes,
    hardware,
    int8_only_bytes,
    keep_one_graph,
    train,
    write_card_file,
    write_results,
)


@dataclass(frozen=True)
class Teacher:
    """The gold-UPOS parser the students learn from: trained, then its best and last checkpoints
    averaged into `archive`, the path the student config reads."""

    config: str
    run: str
    epochs: int
    archive: str


@dataclass(frozen=True)
class Student:
    """One point of the accuracy-speed front: a config, its run folder under runs/parser/ud_ewt/,
    its SIZE variable, and overrides (`-o`) where it departs from the config."""

    label: str
    config: str
    run: str
    distilled: bool
    size: Optional[str] = None
    overrides: Optional[dict[str, Any]] = None


RAW_TEXT_STUDENT = "training_configs/parser/ud_ewt_raw_text_student.jsonnet"
DROPOUT_OFF = {"model.embedding_dropout": 0.0, "model.mlp_dropout": 0.0, "model.encoder.dropout": 0.0}
# A distilled student "matches" the baseline within this much dev LAS: 0.1 is 25 of EWT dev's 25,148
# words, under a third of the spread between seeds of one config (0.3-0.4 LAS in the seed studies).
TIE_LAS = 0.1
SPEED_PASSES = 3  # more passes over the test set per candidate, in turn, for its tokens/s


@dataclass(frozen=True)
class ShippedParser:
    name: str
    students: tuple[Student, ...]  # the first one without a teacher: the baseline the others must match
    teacher: Teacher
    treebank: str  # under $GREEN_NLP_DATA/ud/
    prefix: str
    title: str
    license: str
    data_lines: tuple[str, ...]


SHIPPED = {
    "en-ewt-parser": ShippedParser(
        name="en-ewt-parser",
        students=(
            Student("B-20", "training_configs/parser/ud_ewt_raw_text_small.jsonnet", "raw_text_b20", distilled=False),
            Student("D-20", RAW_TEXT_STUDENT, "raw_text_d20", distilled=True, size="20"),
            Student("D-20, dropout off", RAW_TEXT_STUDENT, "raw_text_d20_no_dropout", True, "20", DROPOUT_OFF),
            Student("D-40, dropout off", RAW_TEXT_STUDENT, "raw_text_d40_no_dropout", True, "40", DROPOUT_OFF),
        ),
        teacher=Teacher(
            config="training_configs/parser/ud_ewt.jsonnet",
            run="runs/ewt_gold_upos",
            epochs=16,
            archive="runs/parser/ud_ewt/teacher/model.tar.gz",
        ),
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


Sentence = tuple[list[str], list[int], list[str], list[str]]  # words, gold heads, relations, UPOS


def conllu_sentences(path: Path) -> list[Sentence]:
    """(words, gold heads, gold relations, gold UPOS) per sentence, skipping multiword tokens and empty nodes."""
    import conllu

    sentences = []
    with open(path, encoding="utf-8") as handle:
        for sentence in conllu.parse_incr(handle):
            tokens = [token for token in sentence if isinstance(token["id"], int)]
            sentences.append(
                (
                    [t["form"] for t in tokens],
                    [t["head"] for t in tokens],
                    [t["deprel"] for t in tokens],
                    [t["upos"] for t in tokens],
                )
            )
    return sentences


def score_runtime(
    folder: Path, precision: str, sentences: Sequence[Sentence], gold_upos: bool = False, repeats: int = 3
) -> dict[str, float]:
    """UAS / LAS (all words, full relations) of the runtime on gold tokens (and gold UPOS for a
    model that reads them, the teacher), and tokens/s on one thread: the best of `repeats` passes,
    so a busy spell on a shared machine does not land on one model of the front."""
    from green_nlp.runtime import load

    nlp = load(folder, precision=precision, threads=1)
    inputs = [(words, upos if gold_upos else None) for words, _, _, upos in sentences]
    seconds = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        parsed = list(nlp.parse_sentences(inputs, 32))
        seconds = min(seconds, time.perf_counter() - start)
    words = heads = arcs = 0
    for result, (_, gold_heads, gold_rels, _) in zip(parsed, sentences):
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


def raw_lines(path: Path, count: int) -> list[str]:
    """The `# text` of the first `count` sentences of a CoNLL-U file: real raw text to parse."""
    import conllu

    with open(path, encoding="utf-8") as handle:
        return [sentence.metadata["text"] for sentence, _ in zip(conllu.parse_incr(handle), range(count))]


def allennlp_equality(archive: Path, folder: Path, lines: list[str]) -> dict[str, Any]:
    """How many raw-text lines the runtime (fp32) parses exactly as the AllenNLP predictor does:
    the same sentences, words, heads, relations and UPOS, as JSON records."""
    from allennlp.predictors import Predictor

    from green_nlp.runtime import load

    predictor = Predictor.from_path(str(archive), "green_dependency_parser")
    expected = [predictor.predict_json(predictor.load_line(line)) for line in lines]
    got = [doc.to_json() for doc in load(folder, precision="fp32", threads=1).parse_many(lines, batch_size=32)]
    same = sum(a == b for a, b in zip(got, expected))
    return {"lines": len(lines), "identical": same, "all_identical": same == len(lines)}


def teacher_archive(teacher: Teacher) -> Path:
    """The students' teacher: trained if needed, its best and last checkpoints averaged into the path the
    student config reads (checkpoint averaging gave the EWT teacher +0.8 LAS, see the headline table)."""
    from green_nlp.commands.green_average_checkpoints import average_run

    target = REPO / teacher.archive
    if not target.exists():
        train(teacher.config, REPO / teacher.run, {"trainer.num_epochs": teacher.epochs})
        average_run(str(REPO / teacher.run), str(target))
    return target


def student_archives(model: ShippedParser) -> dict[str, Path]:
    """The front's runs, by label: finished runs are reused, unfinished ones resumed."""
    runs = REPO / "runs" / "parser" / "ud_ewt"
    return {
        student.label: train(
            student.config,
            runs / student.run,
            student.overrides,
            variables={"SIZE": student.size} if student.size else None,
        )
        for student in model.students
    }


def measure_front(
    archives: dict[str, Path],
    distilled: dict[str, bool],
    scratch: Path,
    dev: Sequence[Sentence],
    test: Sequence[Sentence],
) -> tuple[dict[str, dict[str, Any]], dict[str, Path]]:
    """Each candidate exported and run by the runtime (int8, one thread): dev LAS to choose by, test
    accuracy and tokens/s to report, the int8 folder's size for the budget."""
    from allennlp.models.archival import load_archive

    from green_nlp.export.common import export_archive

    front: dict[str, dict[str, Any]] = {}
    folders: dict[str, Path] = {}
    for label, archive in archives.items():
        folders[label] = export_archive(archive, scratch / label.replace(" ", "_"))
        metrics = json.loads((archive.parent / "metrics.json").read_text())
        front[label] = {
            "archive": str(archive.relative_to(REPO)),
            "distilled": distilled[label],
            "parameters": sum(p.numel() for p in load_archive(str(archive)).model.parameters()),
            "epochs": metrics["epoch"] + 1,
            "allennlp_test": {key: metrics[key] for key in ("test_UAS", "test_LAS", "test_upos_accuracy")},
            "dev_int8": score_runtime(folders[label], "int8", dev, repeats=1),
            "test_int8": score_runtime(folders[label], "int8", test, repeats=1),
            "int8_folder_bytes": int8_only_bytes(folders[label]),
        }
    # speed in passes taken in turn over the candidates, so a busy spell on a shared machine does
    # not fall on one of them; the best pass of each counts
    for _ in range(SPEED_PASSES):
        for label in front:
            best = front[label]["test_int8"]["tokens_per_s"]
            again = score_runtime(folders[label], "int8", test, repeats=1)
            if again["tokens_per_s"] > best:
                front[label]["test_int8"].update(
                    tokens_per_s=again["tokens_per_s"], sentences_per_s=again["sentences_per_s"]
                )
    for label, row in front.items():
        print(label, json.dumps({k: row[k] for k in ("parameters", "dev_int8", "test_int8")}), flush=True)
    return front, folders


def choose(front: dict[str, dict[str, Any]]) -> str:
    """The smallest distilled student that parses dev as well as the student of the smallest size
    trained without a teacher (the model it replaces, at that model's speed or better), within
    `TIE_LAS`; if none does, the distilled student most accurate on dev. Within the size budget
    either way; chosen on dev only, so the test figures stay a fair report."""
    baseline = next(label for label, row in front.items() if not row["distilled"])
    fits = [
        label for label, row in front.items() if row["distilled"] and row["int8_folder_bytes"] <= FOLDER_BUDGET_BYTES
    ]
    if not fits:
        raise SystemExit("no distilled student fits the 12 MB budget")
    bar = front[baseline]["dev_int8"]["LAS"] - TIE_LAS
    good = [label for label in fits if front[label]["dev_int8"]["LAS"] >= bar]
    if good:
        return min(good, key=lambda label: (front[label]["parameters"], -front[label]["dev_int8"]["LAS"]))
    return max(fits, key=lambda label: front[label]["dev_int8"]["LAS"])


def measure_teacher(archive: Path, scratch: Path, test: Sequence[Sentence]) -> dict[str, Any]:
    """The teacher's size and its test scores with gold UPOS (runtime, fp32): what the students learn from."""
    from allennlp.models.archival import load_archive

    from green_nlp.export.common import export_archive

    folder = export_archive(archive, scratch / "teacher")
    return {
        "parameters": sum(p.numel() for p in load_archive(str(archive)).model.parameters()),
        "test_fp32_gold_upos": score_runtime(folder, "fp32", test, gold_upos=True),
    }


def front_rows(figures: dict[str, Any]) -> list[str]:
    """The card's and the results' table of the candidates."""
    rows = [
        "| model | teacher | parameters | dev LAS | test UAS | test LAS | tokens/s | int8 folder |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, row in figures["front"].items():
        mark = " (shipped)" if label == figures["chosen"] else ""
        rows.append(
            f"| {label}{mark} | {'gold-UPOS parser' if row['distilled'] else 'none'} | {row['parameters']:,} | "
            f"{row['dev_int8']['LAS']:.2f} | {row['test_int8']['UAS']:.2f} | {row['test_int8']['LAS']:.2f} | "
            f"{row['test_int8']['tokens_per_s']:,.0f} | {row['int8_folder_bytes'] / 1e6:.1f} MB |"
        )
    teacher = figures["teacher"]
    rows.append(
        f"| teacher (reads gold UPOS) | | {teacher['parameters']:,} | | {teacher['test_fp32_gold_upos']['UAS']:.2f} | "
        f"{teacher['test_fp32_gold_upos']['LAS']:.2f} | {teacher['test_fp32_gold_upos']['tokens_per_s']:,.0f} | |"
    )
    return rows


def write_card(model: ShippedParser, folder: Path, figures: dict[str, Any]) -> Path:
    shipped = figures["shipped_precision"]
    runtime = figures["runtime"][shipped]
    torch_test = figures["allennlp_test"]
    agreement = figures["int8_agreement_dev"]
    chosen = figures["chosen"]
    baseline = next(label for label, row in figures["front"].items() if not row["distilled"])

    def gain(split: str) -> float:
        return figures["front"][chosen][split]["LAS"] - figures["front"][baseline][split]["LAS"]

    lines = [
        f"# {model.title}",
        "",
        "Parses raw English text (tokenized and split into sentences by spaCy's rule-based English",
        "tokenizer and sentencizer) into Universal Dependencies trees with UPOS tags, without a",
        "separate tagger. A biaffine parser (words + character CNN -> 3-layer BiLSTM -> biaffine arc",
        f"and label scorers, a joint UPOS head; {figures['parameters']:,} parameters), distilled from a",
        "larger parser that reads gold UPOS tags, exported to ONNX and run by `green_nlp.runtime` (no",
        f"torch). Shipped: student **{chosen}**, graph **{shipped}**.",
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
        "## Distillation and the accuracy-speed front",
        "",
        "The teacher is the gold-UPOS biaffine parser of `training_configs/parser/ud_ewt.jsonnet` (best and",
        "last checkpoints averaged). Students read raw text only; on each training sentence the teacher reads",
        "the treebank's gold UPOS as well, and the students learn its arc and label distributions",
        "(KL + cross-entropy, dropout 0.33 as the baseline's, or off as in the seed paper where the label",
        "says so). D-x has x % of the teacher's parameters (before the character CNN);",
        f"{baseline} is the D-{baseline[2:]} model trained without a teacher, the model a distilled one must beat.",
        "Runtime int8 (the teacher: fp32, with gold UPOS), one thread, batch 32, tokens/s the best of 4 passes",
        "taken in turn over the students (of 3 for the teacher); gold tokens:",
        "",
        *front_rows(figures),
        "",
        f"Shipped: the smallest distilled student as accurate on dev as {baseline} (within {TIE_LAS} LAS),",
        "chosen on dev only (the test columns are a report, not a choice). What the teacher gives here:",
        f"{chosen} against {baseline}, dev LAS {gain('dev_int8'):+.2f}, test LAS {gain('test_int8'):+.2f}, at the same",
        "size and speed.",
        "",
        f"Hardware: {figures['hardware']}. The shipped student trained for {figures['epochs']} epochs on one thread.",
        "",
        "## Limits",
        "- English web text of the EWT genres (blogs, reviews, e-mail, answers); accuracy falls on other",
        "  domains and on text tokenized differently from spaCy's rules.",
        "- The teacher gave targets on the sentences it was trained on (no cross-fitted teachers), where",
        "  its distributions are close to one-hot, so they add little to the gold trees; on gold-UPOS EWT",
        "  students, cross-fitted teachers (each without the sentences it scores) gave 0.3-0.5 LAS over",
        "  the student without a teacher (docs/parser.md), at the cost of one teacher per fold.",
        "- Sentences over the model's maximum length are refused, not truncated.",
        "",
    ]
    return write_card_file(folder, model.name, lines, "trains the teacher, then the students of the front")


def build(model: ShippedParser, archive: Optional[Path]) -> dict[str, Any]:
    """`archive`, if given, skips the choice: that trained student ships (the front is still measured
    from the runs that the recipe finds or trains)."""
    from green_nlp.runtime.parser_agreement import int8_agreement

    data = data_dir() / "ud" / model.treebank
    if not data.is_dir():
        raise SystemExit(f"{data} not found: set GREEN_NLP_DATA to the shared data folder")
    os.environ.setdefault("GREEN_NLP_DATA", str(data_dir()))
    teacher = teacher_archive(model.teacher)
    archives = student_archives(model)
    dev = conllu_sentences(data / f"{model.prefix}dev.conllu")
    test = conllu_sentences(data / f"{model.prefix}test.conllu")
    with tempfile.TemporaryDirectory() as scratch:
        distilled = {student.label: student.distilled for student in model.students}
        front, folders = measure_front(archives, distilled, Path(scratch), dev, test)
        chosen = choose(front)
        if archive is not None:
            chosen = next((label for label, path in archives.items() if path.resolve() == archive.resolve()), chosen)
        exported = folders[chosen]
        metrics = json.loads((archives[chosen].parent / "metrics.json").read_text())
        equality = allennlp_equality(archives[chosen], exported, raw_lines(data / f"{model.prefix}test.conllu", 500))
        agreement = int8_agreement(exported, [(words, None) for words, *_ in dev], threads=1)
        runtime = {precision: score_runtime(exported, precision, test) for precision in ("fp32", "int8")}
        shipped = "int8" if agreement["heads_and_labels"] >= AGREEMENT_FOR_INT8 else "fp32"
        keep_one_graph(exported, shipped)
        figures: dict[str, Any] = {
            "name": model.name,
            "chosen": chosen,
            "front": front,
            "teacher": measure_teacher(teacher, Path(scratch), test),
            "archive_sha256": json.loads((exported / "green_model.json").read_text())["source_archive_sha256"],
            "allennlp_test": front[chosen]["allennlp_test"],
            "epochs": metrics["epoch"] + 1,
            "int8_agreement_dev": agreement,
            "runtime": runtime,
            "fp32_equals_allennlp_test_500": equality,
            "shipped_precision": shipped,
            "parameters": front[chosen]["parameters"],
            "hardware": hardware(),
        }
        figures["folder_bytes"] = folder_bytes(exported)
        finish_folder(model.name, exported, write_card(model, exported, figures), figures)
    write_results(figures, results_markdown(figures))
    return figures


def results_markdown(figures: dict[str, Any]) -> str:
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
    return "\n".join(rows + ["", *front_rows(figures)]) + (
        f"\n\n{figures['name']} (student {figures['chosen']}): UD English-EWT test, gold tokens, all words; "
        f"{figures['parameters']:,} parameters, "
        f"{figures['folder_bytes'] / 1e6:.1f} MB folder. int8 vs fp32 on dev words: "
        f"{100 * agreement['heads_and_labels']:.2f} % same head and label. Runtime fp32 = AllenNLP predictor on "
        f"{equality['identical']} of {equality['lines']} test lines as raw text. {figures['hardware']}.\n"
    )
