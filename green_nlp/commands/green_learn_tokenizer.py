"""`allennlp green-learn-tokenizer`: learn the rules that bring spaCy's tokens to a treebank's word
conventions (green_nlp.runtime.treebank_tokenization), from its training file.

    allennlp green-learn-tokenizer en_ewt-ud-train.conllu --dev en_ewt-ud-dev.conllu \\
        --folder pretrained/en-ewt-parser

`--folder` adds them to an exported parser or tagger folder (its `green_model.json` names the file
and records its sha256), so the runtime tokenizes raw text the treebank's way (a folder that has
rules already is refused unless `--replace`); `--output` writes the
JSON alone (for the `green_dependency_parser` predictor's `tokenizer_rules`). With `--dev`, the words
matched before and after are measured on that file and kept in the JSON's "figures". A treebank
without `# text` comments needs `--text-from-words` (`unspaced` for Chinese: the rules' merges then
join spaCy's single characters into the treebank's words).
"""

import argparse
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError

from green_nlp.data.tokenization_rules import TEXT_FROM_WORDS, learn_rules, read_gold, word_scores
from green_nlp.export.common import check_tokenizer_language
from green_nlp.line_stream import same_file
from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.model_folder import record_file_hashes
from green_nlp.runtime.treebank_tokenization import FILE, TokenizationRules

logger = logging.getLogger(__name__)


@Subcommand.register("green-learn-tokenizer")
class GreenLearnTokenizer(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Learn rules that make spaCy's tokens match a treebank's words, from its CoNLL-U training file."
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument(
            "train_file", help="CoNLL-U with '# text' comments, or see --text-from-words (the treebank's train)"
        )
        subparser.add_argument("--dev", default=None, help="CoNLL-U to measure the words matched before and after")
        subparser.add_argument("--output", default=None, help="the rules' JSON file to write")
        subparser.add_argument("--folder", default=None, help="an exported parser/tagger folder to add the rules to")
        subparser.add_argument(
            "--replace", action="store_true", help="replace the tokenizer rules the --folder already has"
        )
        subparser.add_argument("--language", default="en", help="spaCy's tokenizer language")
        subparser.add_argument(
            "--text-from-words",
            choices=TEXT_FROM_WORDS,
            default=None,
            help="for sentences without a '# text' comment (left out by default): rebuild their text from the "
            "words, 'spaced' as UD does (a space unless MISC has SpaceAfter=No), 'unspaced' with nothing between "
            "them (a language written without spaces, e.g. UD Chinese-GSD v1.3); --dev is read the same way",
        )
        subparser.add_argument("--min-count", type=int, default=2, help="times a text rule must be seen right")
        subparser.add_argument("--min-share", type=float, default=0.5, help="share of its occurrences it is right")
        subparser.add_argument("--min-shape-count", type=int, default=3, help="the same for a shape rule")
        subparser.add_argument("--min-shape-share", type=float, default=0.6, help="the same for a shape rule")
        subparser.set_defaults(func=_run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    if args.output is None and args.folder is None:
        raise ConfigurationError("give --output FILE, --folder MODEL_FOLDER, or both")
    if not 0.0 < args.min_share <= 1.0 or not 0.0 < args.min_shape_share <= 1.0:
        raise ConfigurationError("--min-share and --min-shape-share must be in (0, 1]")
    if args.min_count < 1 or args.min_shape_count < 1:
        raise ConfigurationError("--min-count and --min-shape-count must be at least 1")
    thresholds = {
        "min_count": args.min_count,
        "min_share": args.min_share,
        "min_shape_count": args.min_shape_count,
        "min_shape_share": args.min_shape_share,
    }
    try:  # before learning: a refusal costs nothing
        check_output(args.output, [args.train_file, args.dev])
        check_tokenizer_language(args.language, "parser")  # spaCy's ImportError for `xx-nope` was a traceback
        if args.folder:
            check_folder(Path(args.folder), args.replace, args.language)
    except ConfigurationError as error:  # one line, not AllenNLP's traceback
        raise SystemExit(f"green-learn-tokenizer: {error.message}") from None
    try:
        payload = learn_tokenizer(
            Path(args.train_file), Path(args.dev) if args.dev else None, args.language, thresholds, args.text_from_words
        )
    except (OSError, ValueError) as error:  # a missing, undecodable or malformed file: its name and line, no traceback
        raise SystemExit(f"green-learn-tokenizer: {error}") from None
    if args.output:
        Path(args.output).write_text(rules_text(payload), encoding="utf-8")
    replaced = held_rules(Path(args.folder)) if args.folder else None
    if args.folder:
        add_to_folder(Path(args.folder), payload)
    print(json.dumps(payload["figures"], indent=1))
    written = [str(path) for path in (args.output, args.folder and Path(args.folder) / FILE) if path]
    summary = f"{payload['figures']['rules']} rules learnt from {args.train_file}, written to {' and '.join(written)}"
    print(summary + (f" (replacing {replaced})" if replaced else ""), file=sys.stderr)
    print(left_out_note(payload["figures"]), file=sys.stderr)


def check_output(output: Optional[str], read: list[Optional[str]]) -> None:
    """Refuse an --output that is a folder or a treebank file the rules are learnt from: the rules'
    JSON replaced the training file once learnt."""
    if output is None:
        return
    if Path(output).is_dir():
        raise ConfigurationError(f"--output {output} is a folder: give the rules' file name (or --folder MODEL_FOLDER)")
    for path in read:
        if path is not None and same_file(Path(path), Path(output)):
            raise ConfigurationError(
                f"--output {output} is the treebank file {path}: writing the rules there would overwrite it; "
                "give another file name"
            )


def left_out_note(figures: dict[str, Any]) -> str:
    """What the rules and their dev figures were measured on: sentences with no `# text`, or whose
    words do not spell it, are left out of both (the dev F1 is then no score of the whole file)."""
    train = figures["train_sentences"]
    note = f"learnt from {train:,} of {train + figures.get('train_sentences_left_out', 0):,} train sentences"
    dev = figures.get("dev")
    if dev and "sentences" in dev:
        whole = dev["sentences"] + dev["sentences_left_out"]
        note += f"; dev words F1 on {dev['sentences']:,} of {whole:,} dev sentences"
    elif dev:
        note += "; dev words F1 on every dev sentence"
    rebuilt = figures.get("text_from_words")  # then a sentence without `# text` got one from its words
    if rebuilt:
        return (
            note + " (a sentence without '# text' has its words' text, rebuilt "
            f"{rebuilt}; one is left out where its words do not spell its text: multiword tokens whose parts "
            "differ from their surface form)"
        )
    return (
        note + " (a sentence is left out where it has no '# text', or words that do not spell it: multiword "
        "tokens whose parts differ from their surface form)"
    )


def learn_tokenizer(
    train: Path,
    dev: Optional[Path],
    language: str,
    thresholds: dict[str, Any],
    text_from_words: Optional[str] = None,
) -> dict[str, Any]:
    """The rules' JSON: learned from `train`, measured on `dev` where given; `text_from_words`: how a
    sentence without `# text` gets one (`tokenization_rules.sentence_text`), in both files."""
    import spacy

    counts: dict[str, int] = {}
    sentences = list(read_gold(train, counts, text_from_words))
    if not sentences:
        hint = "" if text_from_words else " (for a treebank without them, give --text-from-words spaced or unspaced)"
        raise ConfigurationError(f"{train}: no sentence with a '# text' comment that its words spell{hint}")
    nlp = spacy.blank(language)
    rules = learn_rules(sentences, nlp, **thresholds)
    figures: dict[str, Any] = {"train_sentences": len(sentences)}
    # left out: no `# text`, or words that do not spell it (multiword tokens whose parts differ from the
    # surface); recorded only where some were, so a treebank without any keeps the figures it had
    if counts["read"] > counts["kept"]:
        figures["train_sentences_left_out"] = counts["read"] - counts["kept"]
    figures.update(rules=len(rules), **thresholds)
    if text_from_words:  # recorded only where used, so the rules learnt from `# text` keep the figures they had
        figures["text_from_words"] = text_from_words
    if dev is not None:
        dev_counts: dict[str, int] = {}
        gold = list(read_gold(dev, dev_counts, text_from_words))

        def tokenizer(with_rules: TokenizationRules) -> Callable[[str], list[str]]:
            return lambda text: with_rules.words([(t.text, bool(t.whitespace_)) for t in nlp.make_doc(text)])

        left_out = dev_counts["read"] - dev_counts["kept"]
        figures["dev"] = {
            "file": dev.name,
            # the F1s below are on the dev sentences whose words spell their text
            **({"sentences": len(gold), "sentences_left_out": left_out} if left_out else {}),
            "words_f1_spacy": round(word_scores(gold, tokenizer(TokenizationRules()))["f1"], 2),
            "words_f1_rules": round(word_scores(gold, tokenizer(rules))["f1"], 2),
        }
    return rules.to_json(source=train.name, figures=figures)


def rules_text(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=1) + "\n"


def folder_meta(folder: Path) -> dict[str, Any]:
    """An exported parser or tagger folder's metadata, or a ConfigurationError saying why not."""
    meta_path = folder / META_FILE
    if not meta_path.is_file():
        raise ConfigurationError(f"{folder}: no {META_FILE}; --folder takes an exported model folder")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if meta.get("family") not in ("parser", "tagger"):
        family = meta.get("family")
        raise ConfigurationError(f"{folder}: a {family!r} folder reads no words; the rules are for parsers and taggers")
    return meta


def held_rules(folder: Path) -> Optional[str]:
    """What tokenizer rules the folder already has (`395 rules learnt from en_ewt-ud-train.conllu`), or None."""
    rules = (folder_meta(folder).get("tokenizer") or {}).get("rules")
    if not isinstance(rules, dict) or not (folder / FILE).is_file():
        return None
    try:
        count = json.loads((folder / FILE).read_text(encoding="utf-8")).get("figures", {}).get("rules")
    except (OSError, ValueError, AttributeError):
        count = None
    learnt = f"{count} rules" if isinstance(count, int) else "the rules"
    return f"{learnt} learnt from {rules.get('source') or 'an unnamed file'}"


def check_folder(folder: Path, replace: bool, language: str = "en") -> None:
    """Refuse a folder that is not an exported parser or tagger, whose tokenizer language is not
    `language` (rules learnt on spaCy's Tamil tokens were applied to its English ones), or that has
    rules already unless `replace`: they were replaced silently, a shipped folder's among them."""
    held_language = (folder_meta(folder).get("tokenizer") or {}).get("language", "en")
    if held_language != language:
        raise ConfigurationError(
            f"{folder} tokenizes {held_language!r} text, and these rules would be learnt on spaCy's {language!r} "
            f"tokens: give --language {held_language}, or export the model with green-export --language {language}"
        )
    held = held_rules(folder)
    if held and not replace:
        raise ConfigurationError(
            f"{folder} already has tokenizer rules ({held}): pass --replace to replace them, or give "
            "--output alone to write the new rules elsewhere"
        )


def add_to_folder(folder: Path, payload: dict[str, Any]) -> None:
    """Write the rules into an exported folder and name them in its metadata (hashes rewritten)."""
    meta_path = folder / META_FILE
    meta = folder_meta(folder)
    (folder / FILE).write_text(rules_text(payload), encoding="utf-8")
    tokenizer = meta.setdefault("tokenizer", {})
    tokenizer["rules"] = {"file": FILE, "source": payload["source"]}
    if "dev" in payload["figures"]:
        tokenizer["rules"]["dev"] = payload["figures"]["dev"]
    indent = 2 if meta_path.read_text(encoding="utf-8").startswith("{\n  ") else 1
    meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=indent) + "\n", encoding="utf-8")
    record_file_hashes(folder)
    logger.info("%s: tokenizer rules added (%s)", folder, FILE)
