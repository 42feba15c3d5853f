"""Issue 42's results table: the raw-text MiniLM teacher, the SIZE=20 students trained on gold and silver
sentences (B-20 gold only, self-training, D-20 soft silver at two silver sizes, seed copies where they
exist) and the `en-ewt-parser` they replace (as released before issue 42, taken from git), one row each,
scored by the same code in one go.

    python -m benchmarks.parser.teacher_scale_table [--archives LABEL=ARCHIVE ...] [--output-dir DIR]

Each student archive is exported for the runtime (int8, deterministic, with its UD heads and lemma
dictionary, as `green-export` writes it) into `--work-dir`, and scored there with the released model:
- dev LAS and test UAS / LAS from the gold words, every word, full relations
  (`benchmarks.parser.shipped_conll18.predicted_file`), the dev LAS the shipped parser's recipe
  (scripts/pretrained_parser.py) chooses by;
- the CoNLL 2018 shared task's scores from raw text on EWT test, each gold sentence's text as a line
  (`benchmarks.parser.ud_heads.raw_text_scores`); each student folder gets the tokenizer rules learned
  from EWT train (`allennlp green-learn-tokenizer`, as the shipped folder has them) and the lemma choice's
  word list (`green_nlp.export.attested_words`, as the shipped folder has it), the released model
  is scored as released (`--no-tokenizer-rules`: spaCy's tokens and no word list for the students too);
- tokens/s, int8, one thread, from raw text and from the gold words, all models taken in turn over
  `--repeats` passes, the best pass of each kept (`ud_heads.tokens_per_second`); and the ratio to the
  released model's (`--shipped-rev`, or `--shipped NAME_OR_FOLDER` instead).
The teacher's archive is not on this machine (it was trained on a GPU): its row holds the gold-token
figures of `allennlp evaluate` (evaluate_dev.json, evaluate_test.json) and its parameter count from its
training log. The row marked: the student pretrained/en-ewt-parser ships where it is one of the rows,
else the one with the best dev LAS within the 12 MB folder budget.

Default archives: runs/parser/ud_ewt/<run>/model.tar.gz for the four runs of scripts/silver_students.sh
and any `<run>_seed<N>` copies. `--archives` scores other archives instead and then writes into
`<work-dir>/results` unless `--output-dir` says otherwise, never into benchmarks/results by default.
Results: benchmarks/results/parser_teacher_scale_table.{json,md}.
"""

import argparse
import json
import re
import statistics
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

from benchmarks.common import REPO, RESULTS, committed_folder, git_bytes, hardware_description, write_results
from benchmarks.parser.shipped_conll18 import predicted_file
from benchmarks.parser.ud_heads import raw_text_scores, tokens_per_second
from benchmarks.parser.ud_heads_weights import labelled_archive, read_gold, training_summary
from green_nlp.settings import data_path

NAME = "parser_teacher_scale_table"
RUNS = REPO / "runs" / "parser" / "ud_ewt"
TEACHER_RUN = RUNS / "minilm_teacher"
SHIPPED = "en-ewt-parser"
SHIPPED_LABEL = f"{SHIPPED} before issue 42"
PREVIOUS_RELEASE = "7e9ab77a7e71cbd58456e670cddfc4aa90de786e"  # the last commit of the release issue 42 replaces
TEACHER_LABEL = "MiniLM teacher (raw text)"
FOLDER_BUDGET_BYTES = 12 * 1000 * 1000  # issue 42: the shipped parser's folder
# label -> run folder under runs/parser/ud_ewt/ (scripts/silver_students.sh)
STUDENTS = {
    "B-20": "silver_b20",
    "self-training (hard, 49k)": "silver_st20_large",
    "D-20 soft 20k": "silver_d20_small",
    "D-20 soft 49k": "silver_d20_large",
}
SEED = re.compile(r"^(?P<base>.+), seed (?P<seed>\d+)$")
# what scripts/silver_students.sh appends to a run's folder name: `seed<N>`, `e<N>` or `seed<N>_e<M>`
RUN_VARIANT = re.compile(r"(?:seed(?P<seed>\d+))?_?(?:e(?P<epochs>\d+))?")
# row key -> markdown column; every row has these keys (None where not measured)
COLUMNS = {
    "silver_sentences": "silver sentences",
    "parameters": "params",
    "dev_las": "dev LAS",
    "test_uas": "test UAS",
    "test_las": "test LAS",
    "raw_las": "raw LAS",
    "raw_clas": "raw CLAS",
    "raw_mlas": "raw MLAS",
    "raw_upos": "raw UPOS",
    "raw_lemmas": "raw LEMMA",
    "raw_ufeats": "raw UFeats",
    "raw_tokens_per_s": "tok/s raw",
    "raw_speed_ratio": "x previous (raw)",
    "tokens_tokens_per_s": "tok/s tokens",
    "tokens_speed_ratio": "x previous (tokens)",
    "folder_mb": "MB",
}
MEAN_KEYS = [key for key in COLUMNS if key not in ("silver_sentences", "parameters")]


def default_archives(runs: Path) -> dict[str, Path]:
    """label -> archive of the four students, their seed copies (`<run>_seed<N>`, labelled ', seed N'),
    longer runs (`<run>_e<N>`: scripts/silver_students.sh with EPOCHS=N, labelled ', N epochs') and the
    seed copies of those (`<run>_seed<S>_e<N>`, ', N epochs, seed S'); a missing one of the four is an
    error naming it."""
    archives: dict[str, Path] = {}
    missing = []
    for label, run in STUDENTS.items():
        archive = runs / run / "model.tar.gz"
        if not archive.is_file():
            missing.append(str(archive))
            continue
        variants: dict[tuple[int, int], Path] = {}  # (epochs, 0 for the config's, seed) -> archive
        for copy in runs.glob(f"{run}_*/model.tar.gz"):
            found = RUN_VARIANT.fullmatch(copy.parent.name[len(run) + 1 :])
            if found and (found["seed"] or found["epochs"]):
                variants[(int(found["epochs"] or 0), int(found["seed"] or 1))] = copy
        archives[label] = archive
        for epochs, seed in sorted(variants):  # the config's epochs first; each run before its seed copies
            name = label + (f", {epochs} epochs" if epochs else "") + (f", seed {seed}" if seed != 1 else "")
            archives[name] = variants[(epochs, seed)]
    if missing:
        raise SystemExit(f"student archives not trained yet: {', '.join(missing)} (or give --archives)")
    return archives


def silver_setting(config: Any) -> tuple[int, str]:
    """(silver sentences, mode: none | hard | soft) of a student's training config; a gold-only reader has none."""
    reader = config.get("dataset_reader", {})
    silver = int(reader.get("silver_sentences") or 0)
    if silver == 0:
        return 0, "none"
    return silver, str(reader.get("silver_targets", "soft"))


def trainable_parameters(log: Path) -> Optional[int]:
    """AllenNLP's count of trainable parameters from a training log ('Number of trainable parameters: N')."""
    if not log.is_file():
        return None
    found = re.findall(r"Number of trainable parameters: (\d+)", log.read_text(encoding="utf-8", errors="replace"))
    return int(found[-1]) if found else None


def empty_row() -> dict[str, Any]:
    return dict.fromkeys(COLUMNS)


def teacher_row(run: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(table row, details) of the teacher from its run folder: allennlp evaluate's gold-token scores."""
    evaluations = {}
    for split in ("dev", "test"):
        path = run / f"evaluate_{split}.json"
        if not path.is_file():
            raise SystemExit(f"teacher evaluation not found: {path} (allennlp evaluate ... --output-file {path})")
        evaluations[split] = json.loads(path.read_text(encoding="utf-8"))
    row = empty_row()
    row.update(
        silver_sentences=0,
        parameters=trainable_parameters(run / "out.log"),
        dev_las=100 * evaluations["dev"]["LAS"],
        test_uas=100 * evaluations["test"]["UAS"],
        test_las=100 * evaluations["test"]["LAS"],
    )
    details: dict[str, Any] = {"run": _shown(run), "evaluate": evaluations}
    for name in ("train_seconds.json", "metrics.json"):  # where it trained, in how long: kept beside the scores
        if (run / name).is_file():
            details[name.removesuffix(".json")] = json.loads((run / name).read_text(encoding="utf-8"))
    return row, details


def shipped_parameters(folder: Path, figures: Optional[dict[str, Any]]) -> Optional[int]:
    """The shipped model's parameter count from its recipe's results (pretrained_en_ewt_parser.json), if they
    describe this folder's archive."""
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    if not figures or figures.get("archive_sha256") != meta.get("source_archive_sha256"):
        return None
    return int(figures["parameters"])


def released_folder(rev: str, target: Path) -> tuple[Path, Optional[dict[str, Any]]]:
    """(pretrained/en-ewt-parser as committed at `rev`, written into `target`; its recipe's results then)."""
    committed_folder(SHIPPED, rev, target)
    if not (target / "green_model.json").is_file():
        raise SystemExit(f"no pretrained/{SHIPPED}/ at commit {rev}")
    results = f"{rev}:benchmarks/results/pretrained_{SHIPPED.replace('-', '_')}.json"
    return target, json.loads(git_bytes("show", results))


def archive_sha256(folder: Path) -> Optional[str]:
    return json.loads((folder / "green_model.json").read_text(encoding="utf-8")).get("source_archive_sha256")


def int8_folder_bytes(folder: Path) -> int:
    """The folder as it ships with the int8 graphs alone: every file but the fp32 graphs (the main
    one and a split folder's character encoder)."""
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    encoder = ((meta.get("inputs") or {}).get("characters") or {}).get("encoder") or {}
    fp32 = {meta["files"].get("fp32"), (encoder.get("files") or {}).get("fp32")}
    return sum(path.stat().st_size for path in folder.iterdir() if path.is_file() and path.name not in fp32)


def has_head(folder: Path, output: str) -> bool:
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    return bool((meta.get("outputs") or {}).get(output))


def ewt_attested_words() -> Any:
    """The lemma choice's word list as the shipped folder's recipe builds it (scripts/pretrained_parser.py)."""
    from green_nlp.export.attested_words import build

    imdb = Path(data_path("cls", "imdb"))
    train = Path(data_path("ud", "UD_English-EWT", "en_ewt-ud-train.conllu"))
    texts = [imdb / "train_unsup.jsonl.gz", imdb / "train.jsonl.gz"]
    return build(train, [path for path in texts if path.is_file()])  # a data folder without IMDB: EWT's words


def ewt_tokenizer_rules() -> dict[str, Any]:
    """The tokenizer rules learned from EWT train, measured on EWT dev (as the shipped folder's)."""
    from green_nlp.commands.green_learn_tokenizer import learn_tokenizer

    ewt = data_path("ud", "UD_English-EWT")
    return learn_tokenizer(ewt / "en_ewt-ud-train.conllu", ewt / "en_ewt-ud-dev.conllu", "en", {})


def accuracy_row(folder: Path, scratch: Path) -> dict[str, Any]:
    """Gold-token strict scores on EWT dev and test and raw-text CoNLL 2018 scores on test of one runtime
    folder (int8, one thread). MLAS, LEMMA and UFeats stay None for a folder without the FEATS / LEMMA heads
    (it writes `_` there from raw text)."""
    from green_nlp.runtime import load

    model = load(folder, precision="int8", threads=1)
    row = empty_row()
    test_path, test_gold = read_gold("test")
    raw = raw_text_scores(model, test_gold, test_path, scratch / "raw.conllu")
    # predicted_file writes the parse into the gold sentences it is given: each call reads them afresh
    dev = predicted_file(model, read_gold("dev")[1], scratch / "dev.conllu")
    test = predicted_file(model, read_gold("test")[1], scratch / "test.conllu")
    feats = has_head(folder, "feats")
    row.update(
        dev_las=dev["strict_las"],
        test_uas=test["strict_uas"],
        test_las=test["strict_las"],
        raw_las=raw["las"],
        raw_clas=raw["clas"],
        raw_mlas=raw["mlas"] if feats else None,
        raw_upos=raw["upos"],
        raw_lemmas=raw["lemmas"] if has_head(folder, "lemma_rules") else None,
        raw_ufeats=raw["ufeats"] if feats else None,
        folder_mb=int8_folder_bytes(folder) / 1e6,
    )
    return row


class GoldWords:
    """A runtime parser seen through `parse_many` but given gold word lists: each list parsed as one
    sentence (`parse_sentences`), one sentence a document, so `ud_heads.tokens_per_second` times it
    from tokens as it times raw text."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def parse_many(self, sentences: list[list[str]]) -> Iterator[list[Any]]:
        return ([parsed] for parsed in self.model.parse_sentences([(words, None) for words in sentences]))


def measure_speed(
    folders: dict[str, Path], texts: list[str], sentences: list[list[str]], repeats: int
) -> dict[str, tuple[float, float]]:
    """label -> (raw-text tokens/s, gold-word tokens/s), int8, one thread: the models taken in turn in each
    of `repeats` passes and the best pass of each kept, so a busy spell of a shared machine hits them alike."""
    from green_nlp.runtime import load

    models = {label: load(folder, precision="int8", threads=1) for label, folder in folders.items()}
    raw = tokens_per_second(models, texts, repeats)
    tokens = tokens_per_second({label: GoldWords(model) for label, model in models.items()}, sentences, repeats)
    return {label: (raw[label], tokens[label]) for label in folders}


def add_speed(rows: dict[str, dict[str, Any]], speed: dict[str, Any], shipped: str) -> None:
    base_raw, base_tokens = speed[shipped]
    for label, (raw, tokens) in speed.items():
        rows[label].update(
            raw_tokens_per_s=raw,
            raw_speed_ratio=raw / base_raw,
            tokens_tokens_per_s=tokens,
            tokens_speed_ratio=tokens / base_tokens,
        )


def seed_means(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """'<label>, mean of N seeds' rows for every label with ', seed N' copies: the mean of each measured
    column over the label's own row and its copies (a column missing from any of them stays None)."""
    groups: dict[str, list[str]] = {}
    for label in rows:
        base = seed_base(label, rows)
        if base is not None:
            groups.setdefault(base, [base]).append(label)
    means: dict[str, dict[str, Any]] = {}
    for base, labels in groups.items():
        row = empty_row()
        row.update(silver_sentences=rows[base]["silver_sentences"], parameters=rows[base]["parameters"])
        for key in MEAN_KEYS:
            values = [rows[label][key] for label in labels]
            row[key] = None if any(value is None for value in values) else statistics.mean(values)
        means[f"{base}, mean of {len(labels)} seeds"] = row
    return means


def choose(rows: dict[str, dict[str, Any]], students: list[str]) -> Optional[str]:
    """The shipped candidate: the student (one run, not a seed mean) with the best dev LAS whose folder
    fits the 12 MB budget; None if none fits."""
    fits = [label for label in students if rows[label]["folder_mb"] * 1e6 <= FOLDER_BUDGET_BYTES]
    return max(fits, key=lambda label: rows[label]["dev_las"]) if fits else None


def seed_base(label: str, labels: Any) -> Optional[str]:
    """The label a ', seed N' copy belongs to, if that label is among `labels`."""
    match = SEED.match(label)
    return match["base"] if match and match["base"] in labels else None


def ordered(
    teacher: Optional[dict[str, Any]], students: dict[str, dict[str, Any]], shipped: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """Teacher, then each student with its seed copies and their mean, then the shipped model."""
    rows: dict[str, dict[str, Any]] = {TEACHER_LABEL: teacher} if teacher is not None else {}
    means = seed_means(students)
    for label, row in students.items():
        if seed_base(label, students) is not None:
            continue
        rows[label] = row
        rows.update({copy: students[copy] for copy in students if seed_base(copy, students) == label})
        rows.update({mean: means[mean] for mean in means if mean.startswith(f"{label}, mean of ")})
    rows[SHIPPED_LABEL] = shipped
    return rows


def comparisons(rows: dict[str, dict[str, Any]], chosen: Optional[str], mark: str = "candidate") -> list[str]:
    """The issue's aims, measured: D-20 against B-20 and self-training on test LAS (gold tokens), and the
    shipped candidate's raw-text LAS and UPOS, speed and size."""
    lines = []

    def label_of(base: str) -> Optional[str]:
        """The seed mean's label where there is one, else the run's; None if neither is a row."""
        mean = next((label for label in rows if label.startswith(f"{base}, mean of ")), None)
        return mean or (base if base in rows else None)

    # (baseline, self-training, distilled rows): the equal-budget rows, then the same at each longer budget
    groups = [(label_of("B-20"), label_of("self-training (hard, 49k)"), ["D-20 soft 20k", "D-20 soft 49k"])]
    for epochs in sorted({label.rsplit(", ", 1)[1] for label in rows if re.search(r", \d+ epochs$", label)}):
        longer_baseline, longer_hard = (label_of(f"{base}, {epochs}") for base in ("B-20", "self-training (hard, 49k)"))
        groups.append((longer_baseline, longer_hard, [f"D-20 soft 49k, {epochs}"]))
    for baseline, hard, distilled in groups:
        for label in filter(None, (label_of(base) for base in distilled)):
            las = rows[label]["test_las"]
            parts = [f"{las - rows[baseline]['test_las']:+.2f} vs {baseline} (aim +1.5)"] if baseline else []
            if hard is not None:
                parts.append(f"{las - rows[hard]['test_las']:+.2f} vs {hard} (aim > 0)")
            if parts:
                lines.append(f"{label}: test LAS {', '.join(parts)}")
    if chosen is not None:
        row = rows[chosen]
        title = "shipped" if mark == "shipped" else "shipped candidate"
        lines.append(
            f"{title} {chosen}: raw LAS {row['raw_las']:.2f} (aim 83.5), raw UPOS {row['raw_upos']:.2f} "
            f"(aim 95.0), tokens/s x{row['raw_speed_ratio']:.2f} raw and x{row['tokens_speed_ratio']:.2f} tokens "
            f"of the previous release's (aim >= 0.90), {row['folder_mb']:.1f} MB (aim <= 12)"
        )
    return lines


def markdown_rows(
    rows: dict[str, dict[str, Any]], chosen: Optional[str], mark: str = "candidate"
) -> dict[str, dict[str, Any]]:
    """Rows for the markdown table: column names as shown, '-' where not measured, the chosen row marked
    ("shipped" when it is what pretrained/ ships, else "candidate")."""
    shown = {}
    for label, row in rows.items():
        name = f"**{label}** ({mark})" if label == chosen else label
        shown[name] = {title: _shown_value(key, row[key]) for key, title in COLUMNS.items()}
    return shown


def _shown_value(key: str, value: Any) -> Any:
    if value is None:
        return "-"
    if key.endswith("_ratio"):
        return f"{value:.2f}"
    return round(value) if key.endswith("_per_s") else value


def note(details: dict[str, Any], best_dev: Optional[str], lines: list[str]) -> str:
    speed = details["speed"]
    return (
        "UD English-EWT. dev LAS, test UAS / LAS: from the gold words, every word (punctuation included), "
        "full relations with subtypes. raw: the CoNLL 2018 shared task's scores (F1) on EWT test from raw "
        "text, each gold sentence's text as a line (spaCy tokenizes and may split it"
        f"{tokenizer_note(details.get('tokenizer_rules'))}). Students and the "
        "released model: the ONNX runtime, int8 (deterministic), one thread; tok/s: "
        f"best of {speed['repeats']} passes taken in turn over all models, over the first {speed['sentences']:,} "
        "sentences of EWT test as raw-text lines and as gold words; x previous: the ratio to the tokens/s of "
        f"{details['shipped']['name']} in the same run. MB: the folder with the int8 graph alone. MLAS, LEMMA, "
        "UFeats: '-' for a model without the FEATS / LEMMA heads (it writes `_` there). "
        f"pretrained/{SHIPPED} now ships: {details['shipped_now'] or 'none of these students'}. "
        "The teacher: all-MiniLM-L6-v2 + "
        "character CNN, trained on EWT train on a GPU; its archive stayed there, so its row holds allennlp "
        "evaluate's gold-token scores (torch fp32, UPOS predicted: test UPOS "
        f"{details['teacher_upos']}) and its parameters from its training log, and '-' for what needs the "
        "runtime. silver sentences: IMDB unlabelled reviews and EWT train's text parsed by the teacher, "
        "beside EWT train's gold trees. "
        f"Best dev LAS within {FOLDER_BUDGET_BYTES // 10**6} MB: {best_dev or 'none fits'}. The recipe "
        "(scripts/pretrained_parser.py) chooses among its listed runs by dev LAS and passes over a student whose "
        "int8 graph is under its agreement bar with fp32 when fp32 is over the budget; the aims below are the "
        "shipped student's where it is one of these rows, else the best dev one's. Test is reported, not chosen on. "
        + " ".join(f"{line}." for line in lines)
        + " Produced by `python -m benchmarks.parser.teacher_scale_table`."
    )


def tokenizer_note(rules: Optional[dict[str, Any]]) -> str:
    if not rules:
        return "; no tokenizer rules"
    dev = rules.get("dev", {})
    return (
        f"; the students' words then follow EWT's conventions by rules learned from {rules['source']} "
        f"(`allennlp green-learn-tokenizer`; EWT dev words F1 {dev.get('words_f1_spacy')} -> "
        f"{dev.get('words_f1_rules')}), the released model's do not; each student folder also has the lemma "
        "choice's word list, as the shipped one (EWT train and IMDB words; docs/parser.md, Lemmas that are words)"
    )


def _shown(path: Path) -> str:
    """A path as the repository names it (relative to its root where it is inside)."""
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--archives", nargs="+", type=labelled_archive, metavar="LABEL=ARCHIVE")
    parser.add_argument("--teacher-run", type=Path, default=TEACHER_RUN)
    parser.add_argument(
        "--shipped-rev", default=PREVIOUS_RELEASE, help=f"commit whose pretrained/{SHIPPED} to compare with"
    )
    parser.add_argument("--shipped", help="a parser's name or folder to compare with instead of --shipped-rev's")
    parser.add_argument("--work-dir", type=Path, default=RUNS / "teacher_scale_table")
    parser.add_argument(
        "--output-dir", type=Path, help="default: benchmarks/results (<work-dir>/results with --archives)"
    )
    parser.add_argument("--repeats", type=int, default=5, help="speed passes over the models")
    parser.add_argument("--speed-lines", type=int, default=0, help="raw-text lines timed (0: all of EWT test)")
    parser.add_argument(
        "--no-tokenizer-rules", action="store_true", help="score the students from spaCy's tokens as they are"
    )
    args = parser.parse_args()
    if args.archives:
        labels = [label for label, _ in args.archives]
        if len(set(labels)) != len(labels) or {TEACHER_LABEL, SHIPPED_LABEL} & set(labels):
            parser.error(f"labels must differ from each other and from the fixed rows: {labels}")
    archives = dict(args.archives) if args.archives else default_archives(RUNS)
    output_dir = args.output_dir or (args.work_dir / "results" if args.archives else RESULTS)
    teacher, teacher_details = teacher_row(args.teacher_run)
    from green_nlp.runtime import resolve_model

    if args.shipped:
        recipe_results = RESULTS / f"pretrained_{SHIPPED.replace('-', '_')}.json"
        baseline = resolve_model(args.shipped)
        figures = json.loads(recipe_results.read_text(encoding="utf-8")) if recipe_results.is_file() else None
        name = str(args.shipped)
    else:
        baseline, figures = released_folder(args.shipped_rev, args.work_dir / "shipped_before")
        name = f"{SHIPPED} as released at commit {args.shipped_rev[:7]}"
    rules = None if args.no_tokenizer_rules else ewt_tokenizer_rules()
    words = None if args.no_tokenizer_rules else ewt_attested_words()
    students, shipped, details = measure(
        archives,
        baseline,
        shipped_parameters(baseline, figures),
        args.work_dir,
        args.repeats,
        args.speed_lines,
        rules,
        words,
    )
    details["shipped"]["name"] = name
    now = archive_sha256(resolve_model(SHIPPED))
    details["shipped_now"] = next((label for label, sha in details.pop("sha256").items() if sha == now), None)
    best_dev = choose(students, list(students))
    chosen = details["shipped_now"] if details["shipped_now"] in students else best_dev
    mark = "shipped" if chosen is not None and chosen == details["shipped_now"] else "candidate"
    table = ordered(teacher, students, shipped)
    lines = comparisons(table, chosen, mark)
    test_upos = teacher_details["evaluate"]["test"].get("upos_accuracy")
    details.update(teacher=teacher_details, teacher_upos=f"{100 * test_upos:.2f}" if test_upos else "-")
    results = {
        "machine": hardware_description(),
        "chosen": chosen,
        "best_dev": best_dev,
        "selection": "best dev LAS (gold tokens, int8 runtime) among the students within the folder budget",
        "aims": lines,
        "rows": table,
        **details,
    }
    shown = markdown_rows(table, chosen, mark)
    write_results(output_dir, NAME, results, shown, list(COLUMNS.values()), note(details, best_dev, lines))


def measure(
    archives: dict[str, Path],
    baseline: Path,
    baseline_parameters: Optional[int],
    work_dir: Path,
    repeats: int,
    speed_lines: int,
    rules: Optional[dict[str, Any]] = None,
    words: Optional[Any] = None,
) -> tuple[dict[str, dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """(rows of the students in `archives` order, row of the shipped model, details: archives, training
    summaries, speed settings); `rules` (a tokenizer rules JSON) and `words` (`AttestedWords`) go into
    every student folder."""
    from green_nlp.commands.green_learn_tokenizer import add_to_folder
    from green_nlp.export import attested_words, export_archive
    from green_nlp.export.common import load_for_export

    folders: dict[str, Path] = {}
    rows: dict[str, dict[str, Any]] = {}
    students: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for number, (label, archive) in enumerate(archives.items()):
            model, config = load_for_export(archive)
            silver, mode = silver_setting(config)
            folders[label] = export_archive(archive, work_dir / f"student_{number}")
            if rules is not None:
                add_to_folder(folders[label], rules)
            meta = json.loads((folders[label] / "green_model.json").read_text(encoding="utf-8"))
            if words is not None and meta["outputs"].get("lemma_rules_top"):  # students with the LEMMA head
                attested_words.add_to_folder(folders[label], words, ["EWT train", "IMDB train_unsup + train"])
            rows[label] = accuracy_row(folders[label], Path(scratch))
            rows[label].update(silver_sentences=silver, parameters=sum(p.numel() for p in model.parameters()))
            students[label] = {"archive": _shown(archive), "mode": mode, **training_summary(archive)}
            print(label, json.dumps(rows[label]), flush=True)
        folders[SHIPPED_LABEL] = baseline
        rows[SHIPPED_LABEL] = accuracy_row(baseline, Path(scratch))
        rows[SHIPPED_LABEL].update(silver_sentences=0, parameters=baseline_parameters)
    gold = read_gold("test")[1]
    gold = gold[:speed_lines] if speed_lines > 0 else gold
    texts = [sentence.metadata["text"] for sentence in gold]
    words = [[token["form"] for token in sentence if isinstance(token["id"], int)] for sentence in gold]
    add_speed(rows, measure_speed(folders, texts, words, repeats), SHIPPED_LABEL)
    details = {
        "students": students,
        "shipped": {"folder": _shown(baseline)},
        "sha256": {label: archive_sha256(folder) for label, folder in folders.items() if label != SHIPPED_LABEL},
        "speed": {"repeats": repeats, "sentences": len(texts)},
        "tokenizer_rules": None if rules is None else {"source": rules["source"], **rules["figures"]},
    }
    shipped_row = rows.pop(SHIPPED_LABEL)
    return rows, shipped_row, details


if __name__ == "__main__":
    main()
