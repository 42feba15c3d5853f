"""Short model cards for every trained benchmark model, from `benchmarks/results/*.json`.

One Markdown card per green_nlp model (data and its license, metrics, size, speed, hardware,
training length, config), written to `experiments/model_cards/`, plus its `README.md` as an index.
Only results that exist are used; nothing is measured here. Licenses are read from the data
folder's README (the table row whose path names the treebank or data set). Peers trained for
comparison (e.g. allennlp-models' parser) get no card: they are named in the results tables.

    python -m benchmarks.reports.model_cards [--results benchmarks/results] [--out experiments/model_cards]
"""

import argparse
import json
import re
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from benchmarks.common import REPO, RESULTS
from green_nlp.data_paths import data_dir

UD_TEST_FILES = {
    "UD_English-EWT": "en_ewt-ud-test.conllu",
    "UD_Tamil-TTB": "ta_ttb-ud-test.conllu",
    "UD_Wolof-WTB": "wo_wtb-ud-test.conllu",
    "UD_Chinese-GSD_v1.3": "zh-ud-test.conllu",
}
CONFIG_STEMS = {
    "UD_English-EWT": "ud_ewt",
    "UD_Tamil-TTB": "ud_tamil_ttb",
    "UD_Wolof-WTB": "ud_wolof_wtb",
    "UD_Chinese-GSD_v1.3": "ud_chinese_gsd_v1_3",
}
EWT_MODELS = {  # benchmarks.parser.ewt's model keys -> training config
    "green_nlp_gold_upos": "training_configs/parser/ud_ewt.jsonnet",
    "green_nlp_gold_upos_averaged": "training_configs/parser/ud_ewt.jsonnet",  # + green-average-checkpoints
    "green_nlp_raw_text": "training_configs/parser/ud_ewt_raw_text.jsonnet",
}


# ------------------------------------------------------------------------------- licenses
def data_licenses(readme: Optional[Path] = None) -> Dict[str, str]:
    """`path` column -> `license` column of the data README's table."""
    readme = readme or data_dir() / "README.md"
    if not readme.exists():
        return {}
    licenses = {}
    for line in readme.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0].startswith("`"):
            licenses[cells[0].strip("`")] = cells[-1]
    return licenses


def license_of(name: str, licenses: Dict[str, str]) -> str:
    for path, text in licenses.items():
        if name in path:
            return text
    return "see the data folder's README (not found here)"


# --------------------------------------------------------------------------------- a card
def _figure(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{_figure(v)} (batch {k})" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def card(
    title: str,
    summary: str,
    data: List[str],
    metrics: Dict[str, Any],
    speed: Dict[str, Any],
    training: Dict[str, Any],
    hardware: str,
    source: str,
    limits: List[str],
) -> str:
    def rows(values: Dict[str, Any]) -> List[str]:
        return [f"| {key} | {_figure(value)} |" for key, value in values.items() if value not in (None, {}, [])]

    parts = [f"# {title}", "", summary, "", "## Data", ""] + [f"- {line}" for line in data]
    parts += ["", "## Metrics", "", "| metric | value |", "|---|---|"] + rows(metrics)
    if speed:
        parts += ["", "## Speed", "", "| measure | value |", "|---|---|"] + rows(speed)
    if training:
        parts += ["", "## Training", "", "| | |", "|---|---|"] + rows(training)
    parts += ["", "## Hardware", "", hardware or "not recorded", "", "## Limits", ""] + [f"- {line}" for line in limits]
    parts += ["", f"Figures from `{source}` (regenerate the card with `python -m benchmarks.reports.model_cards`).", ""]
    return "\n".join(parts)


def _training(row: Dict[str, Any], config: str) -> Dict[str, Any]:
    keys = ("epochs", "epochs_configured", "best_epoch", "best_dev_uas", "best_dev_las", "train_minutes")
    training = {"config": f"`{config}`", **{key: row.get(key) for key in keys}}
    if row.get("archived_from_best_th"):
        training["archive"] = "from best.th of a run that had not finished"
    if "averaged" in row.get("description", ""):
        training["archive"] = (
            "`allennlp green-average-checkpoints`: mean of the best-on-dev and the last epoch's weights"
        )
    if row.get("dev_las") is not None:
        training["dev LAS of this archive"] = row["dev_las"]
    return training


def _parser_limits(treebank: str, license_text: str) -> List[str]:
    limits = [
        "UAS/LAS over all words, punctuation included, full UD relations with subtypes.",
        "Trained on 2 CPU cores for far fewer epochs than the seed paper's 100 (see Training).",
    ]
    if "NC" in license_text or "research" in license_text.lower():
        limits.append(
            f"The {treebank} data is licensed for non-commercial research ({license_text}); so is this model."
        )
    return limits


# --------------------------------------------------------------------------- per results file
def parser_ewt_cards(results: Dict[str, Any], licenses: Dict[str, str], source: str) -> Dict[str, str]:
    cards = {}
    treebank = results.get("test_file", "UD_English-EWT/").split("/")[0] or "UD_English-EWT"
    license_text = license_of(treebank, licenses)
    for key, row in results.get("models", {}).items():
        if key not in EWT_MODELS:
            continue  # peers
        speed = {
            "CPU tokens/s (1 thread)": row.get("cpu_tokens_per_s"),
            "CPU sentences/s (1 thread)": row.get("cpu_sentences_per_s"),
            "batch size": results.get("batch_size"),
            "share of time in tree decoding": row.get("decode_share"),
            "speed-up vs allennlp-models biaffine_parser": row.get("speedup_vs_allennlp_models"),
        }
        cards[f"parser_ewt_{key}"] = card(
            f"green_nlp biaffine parser: {key}",
            row.get("description", key),
            [
                f"{treebank}: trained on train, selected on dev, tested on `{results.get('test_file')}` "
                f"({_figure(results.get('test_sentences'))} sentences, {_figure(results.get('test_tokens'))} tokens)",
                f"License: {license_text}",
                f"Gold UPOS at input: {row.get('gold_upos')}",
            ],
            {"UAS": row.get("uas"), "LAS": row.get("las"), "trainable parameters": row.get("params")},
            speed,
            _training(row, EWT_MODELS[key]),
            results.get("hardware", ""),
            source,
            _parser_limits(treebank, license_text),
        )
    return cards


def _variant_config(treebank: str, variant: str) -> str:
    stem = CONFIG_STEMS.get(treebank, treebank.lower())
    if variant == "full":
        return f"training_configs/parser/{stem}.jsonnet"
    kind, fraction = variant.split("-")
    distilled = "true" if kind == "D" else "false"
    return f"TREEBANK={stem} SIZE={fraction} DISTILLED={distilled} SEED=1 training_configs/parser/student.jsonnet"


def parser_distillation_cards(results: Dict[str, Any], licenses: Dict[str, str], source: str) -> Dict[str, str]:
    cards = {}
    for treebank, figures in results.get("treebanks", {}).items():
        models = figures.get("models", {})
        license_text = license_of(treebank, licenses)
        for variant, row in models.items():
            if row.get("peer") or variant.endswith("+int8") or not re.fullmatch(r"full|[DB]-\d+", variant):
                continue
            int8 = models.get(f"{variant}+int8", {})
            speed = {
                "CPU tokens/s (1 thread)": row.get("cpu_tokens_per_s"),
                "CPU sentences/s (1 thread)": row.get("cpu_sentences_per_s"),
                "GPU tokens/s": row.get("gpu_tokens_per_s"),
                "int8 dynamic quantization: CPU tokens/s": int8.get("cpu_tokens_per_s"),
                "int8: UAS / LAS": f"{int8['uas']} / {int8['las']}" if int8 else None,
            }
            what = (
                "the full-size teacher"
                if variant == "full"
                else f"a student with {variant.split('-')[1]} % of the teacher's parameters, "
                + (
                    "distilled from the teacher (KL + CE, the seed paper's equation 3)"
                    if variant[0] == "D"
                    else "trained without a teacher (baseline)"
                )
            )
            cards[f"parser_{CONFIG_STEMS.get(treebank, treebank)}_{variant.replace('-', '').lower()}"] = card(
                f"green_nlp biaffine parser, {treebank}, {variant}",
                f"Biaffine dependency parser: {what}.",
                [
                    f"{treebank}: trained on train, selected on dev, tested on `{UD_TEST_FILES.get(treebank, 'test')}` "
                    f"({_figure(figures.get('test_sentences'))} sentences, "
                    f"{_figure(figures.get('test_tokens'))} tokens)",
                    f"License: {license_text}",
                ],
                {
                    "UAS": row.get("uas"),
                    "LAS": row.get("las"),
                    "trainable parameters": row.get("params"),
                    "fraction of the full model's parameters": row.get("param_fraction"),
                },
                speed,
                _training(row, _variant_config(treebank, variant)),
                f"{results.get('hardware', '')}; {results.get('threads', 1)} thread(s); GPU: {results.get('gpu')}",
                source,
                _parser_limits(treebank, license_text),
            )
    return cards


LDNET_TASKS = {"conll2003": "ner", "wnut17": "wnut17", "conll2000": "chunking"}  # TASK of ldnet/tagger.jsonnet
LDNET_VARIANTS = {  # variant: (the STAGE that trained it, what it is)
    "nolm": ("nolm", "the char-LSTM + BiLSTM-CRF tagger without language-model features"),
    "origin": ("origin", "the tagger over all layers of the forward and backward densely connected LMs"),
    "pruned": ("prune", "the tagger after layer selection, with unselected LM layers removed"),
    "pruned_ft": (
        "finetune",
        "the pruned tagger fine-tuned a few more epochs with its LM layers and gates fixed (beyond the LD-Net paper)",
    ),
}


def _ldnet_config(dataset: str, stage: str) -> str:
    return f"TASK={LDNET_TASKS.get(dataset, dataset)} STAGE={stage} training_configs/ldnet/tagger.jsonnet"


def ldnet_cards(results: Dict[str, Any], licenses: Dict[str, str], source: str) -> Dict[str, str]:
    setting = results.get("setting", {})
    hardware = f"{setting.get('hardware', '')}; {setting.get('threads', 1)} thread(s)"
    cards = {}
    for direction, lm in results.get("language_models", {}).items():
        cards[f"ldnet_lm_{direction}"] = card(
            f"green_nlp LD-Net {direction} language model",
            f"Densely connected LSTM language model ({direction}), adaptive softmax; "
            "its layer outputs feed the taggers.",
            [
                "IMDB unlabeled reviews + the tagging sets' training text, built by "
                "`python -m green_nlp.dataset_readers.lm_corpus` (read whole, for the config's epochs)",
                f"License: {license_of('imdb', licenses)} (IMDB); the tagging sets' own licenses for their text",
            ],
            {
                "validation perplexity": lm.get("validation_perplexity"),
                "training perplexity": lm.get("training_perplexity"),
            },
            {},
            {"config": f"`training_configs/ldnet/lm_{direction}.jsonnet`", "epochs": lm.get("epochs")},
            hardware,
            source,
            ["Trained for far fewer epochs than the LD-Net paper; its perplexity is much higher."],
        )
    for dataset, figures in results.get("datasets", {}).items():
        license_text = license_of(dataset, licenses)
        for variant, (stage, what) in LDNET_VARIANTS.items():
            row = figures.get(variant)
            if not row:
                continue
            metrics = {
                "span F1 (test)": row.get("f1"),
                "parameters": row.get("params"),
                "LM parameters": row.get("lm_params"),
                "LM layers kept (forward, backward)": row.get("lm_layers"),
            }
            speed = {
                "CPU words/s (1 thread)": row.get("cpu_words_per_s"),
                "LM multiply-adds per word": row.get("lm_flops_per_token"),
                "tagger multiply-adds per word": row.get("tagger_flops_per_token"),
            }
            cards[f"ldnet_{dataset}_{variant}"] = card(
                f"green_nlp LD-Net tagger, {dataset}, {variant}",
                f"Sequence labeler: {what}.",
                [f"{dataset}: tested on `{figures.get('test_file')}`", f"License: {license_text}"],
                metrics,
                speed,
                {
                    "config": f"`{_ldnet_config(dataset, stage)}`",
                    "epochs": row.get("epochs"),
                },
                hardware,
                source,
                ["Trained for a few epochs on 2 CPU cores (see the README's limits)."],
            )
    return cards


DAN_VARIANTS = {
    "teacher": ("teacher", "the large teacher classifier the DAN is distilled from"),
    "dan_scratch": ("dan_scratch", "a DAN over 1-4-gram embeddings trained on the labeled data only (baseline)"),
    "dan_kd": ("dan_kd", "a DAN distilled from the teacher on unlabeled text + the train set (KL loss)"),
    "dan_kd_ft": ("dan_kd_ft", "the distilled DAN after the fine-tuning stage on the labeled data"),
}


# Classes as the data files write them, where they are readable already; SST-2's "0"/"1" get their
# names from training_configs/dan/labels.libsonnet, which the SST-2 configs give the readers.
DAN_CLASSES = {"imdb": ["neg", "pos"], "trec": ["ABBR", "DESC", "ENTY", "HUM", "LOC", "NUM"]}
TREC_MEANINGS = {
    "ABBR": "abbreviation",
    "DESC": "description",
    "ENTY": "entity",
    "HUM": "human",
    "LOC": "location",
    "NUM": "numeric value",
}
LABELS_LIBSONNET = REPO / "training_configs" / "dan" / "labels.libsonnet"


def config_label_names(path: Path = LABELS_LIBSONNET) -> Dict[str, Dict[str, str]]:
    """Data set -> {label in the data: readable name}, as the configs set the readers' `label_names`."""
    if not path.exists():
        return {}
    import _jsonnet  # allennlp's dependency; imported here so the other cards need none

    return json.loads(_jsonnet.evaluate_file(str(path)))


def dan_classes(dataset: str, row: Dict[str, Any], label_names: Dict[str, Dict[str, str]]) -> Optional[str]:
    """The card's class list: the names a model predicts, with the data's own label beside a renamed one."""
    base = dataset.removesuffix("_cpu")
    if row.get("labels"):  # recorded by the benchmark from the archive's vocabulary
        return ", ".join(f"`{label}`" for label in row["labels"])
    if base in label_names:
        return ", ".join(f"`{name}` (`{raw}` in the data)" for raw, name in label_names[base].items())
    if base in DAN_CLASSES:
        return ", ".join(
            f"`{label}` ({TREC_MEANINGS[label]})" if label in TREC_MEANINGS else f"`{label}`"
            for label in DAN_CLASSES[base]
        )
    return None


DAN_TRAINED_ON_CPU = "Trained on 2 CPU cores with shortened schedules (see the README's limits)."
DAN_TRAINED_ON_GPU = "Fine-tuned on one GPU (data and schedule in its config's header)."  # teacher_*_full


def _percent(fraction: Optional[float]) -> Optional[float]:
    return None if fraction is None else round(100 * fraction, 2)


def dan_config(recorded: str) -> str:
    """How to train a DAN run again, from the config its results row records: a reference as
    benchmarks.dan.distillation writes it now, or the stem of a file from before the DAN students became one
    parameterised config (`dan_<stage>_<dataset>`, `dan_kd_trec_questions`)."""
    if recorded.endswith(".jsonnet"):
        return recorded
    if recorded.startswith("teacher_"):
        return f"training_configs/dan/{recorded}.jsonnet"
    stage, dataset = (
        ("kd_questions", "trec")
        if recorded == "dan_kd_trec_questions"
        else re.fullmatch(r"dan_(.+)_(sst2_full|imdb_full|sst2|imdb|trec)", recorded).groups()
    )
    return f"DATASET={dataset} STAGE={stage} training_configs/dan/student.jsonnet"


def dan_cards(results: Dict[str, Any], licenses: Dict[str, str], source: str) -> Dict[str, str]:
    settings = results.get("settings", {})
    hardware = (
        f"{results.get('hardware', '')}; {settings.get('threads', 1)} thread(s), batch {settings.get('batch_size')}"
    )
    cards = {}
    label_names = config_label_names()
    for dataset, figures in results.get("datasets", {}).items():
        license_text = license_of(dataset.removesuffix("_cpu"), licenses)  # imdb_cpu: the same data
        evaluation = figures.get("evaluation", {})
        for variant, (config, what) in DAN_VARIANTS.items():
            row = figures.get(variant)
            if not row:
                continue
            metrics = {
                "accuracy % (test)": _percent(row.get("accuracy")),
                "accuracy % (dev)": _percent(row.get("dev_accuracy")),
                "parameters": row.get("params"),
                "embedding parameters": row.get("embedding_params"),
            }
            speed = {
                "CPU examples/s incl. tokenization (1 thread)": row.get("cpu_examples_per_s"),
                "CPU examples/s, model only": row.get("model_examples_per_s"),
            }
            config_name = dan_config(row.get("config", f"{config}_{dataset.removesuffix('_cpu')}"))  # older: none
            classes = dan_classes(dataset, row, label_names)
            cards[f"dan_{dataset}_{variant}"] = card(
                f"green_nlp text classifier, {dataset}, {variant}",
                f"Text classifier: {what}.",
                [
                    f"Test: {evaluation.get('test', dataset)}",
                    f"Dev: {evaluation.get('dev', '-')}",
                    f"License: {license_text}",
                ]
                + ([f"Classes: {classes}"] if classes else []),
                metrics,
                speed,
                {"config": f"`{config_name}`"},
                hardware,
                source,
                [
                    DAN_TRAINED_ON_GPU
                    if "/teacher_" in config_name and config_name.endswith("_full.jsonnet")
                    else DAN_TRAINED_ON_CPU
                ],
            )
    return cards


def generic_cards(name: str, results: Dict[str, Any], licenses: Dict[str, str], source: str) -> Dict[str, str]:
    """Results of another layout with a `models` table: every number in a row becomes a metric."""
    cards = {}
    dataset = str(results.get("dataset") or results.get("data") or results.get("treebank") or "")
    license_text = license_of(dataset, licenses) if dataset else "see the data folder's README"
    for key, row in (results.get("models") or {}).items():
        if not isinstance(row, dict) or row.get("peer"):
            continue
        numbers = {k: v for k, v in row.items() if isinstance(v, (int, float, dict)) and not isinstance(v, bool)}
        speed = {k: numbers.pop(k) for k in list(numbers) if "per_s" in k or "speed" in k}
        cards[f"{name}_{key}"] = card(
            f"{name}: {key}",
            str(row.get("description", key)),
            [f"Data: {dataset or 'see the results file'}", f"License: {license_text}"],
            numbers,
            speed,
            {},
            str(results.get("hardware", "")),
            source,
            ["See the benchmark script's docstring for how the figures were taken."],
        )
    return cards


BUILDERS: Dict[str, Callable[..., Dict[str, str]]] = {
    "parser_ewt": parser_ewt_cards,
    "parser_distillation": parser_distillation_cards,
    "ldnet": ldnet_cards,
    "dan": dan_cards,
    "robustness": lambda results, licenses, source: {},  # input-handling cases, not models
    "tree_decoders": lambda results, licenses, source: {},  # decoder timings, not models
    "serve_load": lambda results, licenses, source: {},  # HTTP serving throughput, not models
}


def write_cards(results_dir: Path, out_dir: Path, licenses: Optional[Dict[str, str]] = None) -> List[Path]:
    licenses = data_licenses() if licenses is None else licenses
    written = []
    for path in sorted(results_dir.glob("*.json")):
        results = json.loads(path.read_text())
        if not isinstance(results, dict):
            continue
        source = f"benchmarks/results/{path.name}"
        builder = BUILDERS.get(path.stem)
        cards = builder(results, licenses, source) if builder else generic_cards(path.stem, results, licenses, source)
        for name, text in cards.items():
            out_dir.mkdir(parents=True, exist_ok=True)
            (out_dir / f"{name}.md").write_text(text)
            written.append(out_dir / f"{name}.md")
    if written:
        index = [
            "# Model cards",
            "",
            "Written by `python -m benchmarks.reports.model_cards` from `benchmarks/results/*.json`.",
            "",
        ]
        index += [f"- [{p.stem}]({p.name})" for p in sorted(written)]
        (out_dir / "README.md").write_text("\n".join(index) + "\n")
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--out", type=Path, default=REPO / "experiments" / "model_cards")
    args = parser.parse_args()
    written = write_cards(args.results, args.out)
    print(
        f"{len(written)} model cards written to {args.out}"
        if written
        else f"no model results in {args.results} yet: no cards written"
    )


if __name__ == "__main__":
    main()
