"""Cases that are not a file of tests/bad_inputs/ (vocabularies that do not match, a pickled
payload, sentences at and over the length limit) and the same files through other entry points:
line by line through each command, and spaCy's components."""

import functools
import pickle
from pathlib import Path
from typing import Any

from allennlp.common.checks import ConfigurationError

from benchmarks.robustness import lines
from benchmarks.robustness.cases.archives import (
    archive_with_pickled_code,
    archive_without_config,
    load_without_running,
    student_with_its_own_vocabulary,
    traversal_archive,
)
from benchmarks.robustness.cases.case import (
    ARCHIVES,
    EVALUATE,
    GREEN_PREDICT,
    PREDICT,
    RUNTIME,
    SPACY,
    TAGGER,
    TEACHER,
    TRAIN,
    Case,
)
from benchmarks.robustness.cases.checks import is_tree, long_sentence_check, no_leftover_check, unseen_gold_check
from benchmarks.robustness.cases.files import raw_text
from benchmarks.robustness.cases.loaders import (
    evaluate_file,
    load_archive,
    parse_words,
    read_conllu,
    temp_folders_left,
    train,
)
from benchmarks.robustness.cases.models import (
    dan_archive,
    dan_folder,
    predictor,
    raw_text_parser,
    runtime_model,
    teacher_like_classifier,
)
from benchmarks.robustness.cases.workspace import work_folder
from benchmarks.robustness.lines import BAD


def _runtime_classify_case(name: str, path: Path, bad: dict[int, str]) -> Case:
    """`green-nlp classify` on the DAN exported to ONNX."""
    return Case(
        name,
        "green-nlp classify (the DAN exported to ONNX)",
        "each bad line reported with its physical number, every other line predicted as alone, in order",
        lambda: lines.runtime_cli("classify", str(dan_folder()), path, work_folder()),
        check=lines.line_check(
            path, bad, lambda text: lines.runtime_reference(runtime_model(str(dan_folder())), "classify")(text)
        ),
        file=path,
        entry=RUNTIME,
    )


def _per_line_cases() -> list[Case]:
    """The raw-text and JSON files through every line-based entry point (see benchmarks.robustness.lines)."""
    raw, parser_json, classifier_json = lines.RAW_TEXT, lines.PARSER_JSON, lines.CLASSIFIER_JSON
    bad_lines = "each bad line reported with its physical number, every other line predicted as alone, in order"

    def family_predictor(family: str) -> Any:
        archive = {"tagger": TAGGER, "classifier": dan_archive(), "parser": raw_text_parser()}[family]
        return predictor(archive, "green_dependency_parser" if family == "parser" else None)

    cases = []
    for family in ("parser", "tagger", "classifier"):
        bad = raw_text(family)
        reference = functools.partial(
            lambda family, text: lines.predictor_reference(family_predictor(family))(text), family
        )
        cases += [
            Case(
                f"raw_text_mixed.txt: {family}",
                f"allennlp predict ({family} archive)",
                bad_lines,
                functools.partial(
                    lambda family: lines.allennlp_predict(family_predictor(family), raw, work_folder()), family
                ),
                check=lines.line_check(raw, bad, reference),
                file=raw,
                entry=PREDICT,
            ),
            Case(
                f"raw_text_mixed.txt: {family} ",
                f"allennlp green-predict ({family} archive)",
                bad_lines,
                functools.partial(lambda family: lines.green_predict(family_predictor(family), raw), family),
                check=lines.line_check(raw, bad, reference),
                file=raw,
                entry=GREEN_PREDICT,
            ),
        ]
    cases += [
        _runtime_classify_case("raw_text_mixed.txt: classifier  ", raw, lines.RAW_TEXT_BAD),
        Case(
            "classifier_json_edge_cases.jsonl ",
            "allennlp green-predict (n-gram DAN)",
            bad_lines,
            lambda: lines.green_predict(family_predictor("classifier"), classifier_json),
            check=lines.line_check(
                classifier_json,
                lines.CLASSIFIER_JSON_BAD,
                lambda text: lines.predictor_reference(family_predictor("classifier"))(text),
            ),
            file=classifier_json,
            entry=GREEN_PREDICT,
        ),
        _runtime_classify_case("classifier_json_edge_cases.jsonl  ", classifier_json, lines.CLASSIFIER_JSON_BAD),
        Case(
            "parser_json_wrong_types.jsonl ",
            "allennlp green-predict (tiny parser, JSON words + upos)",
            "each of lines 2-7 reported naming the field and type; lines 1 and 8 parsed",
            lambda: lines.green_predict(predictor(TEACHER, "green_dependency_parser"), parser_json),
            check=lines.line_check(
                parser_json,
                lines.PARSER_JSON_BAD,
                lambda text: lines.predictor_reference(predictor(TEACHER, "green_dependency_parser"))(text),
            ),
            file=parser_json,
            entry=GREEN_PREDICT,
        ),
    ]
    return cases


@functools.cache
def spacy_pipeline(component: str) -> Any:
    import spacy

    nlp = spacy.blank("en")
    if component == "parser":
        nlp.add_pipe("sentencizer")
        nlp.add_pipe("green_nlp_parser", config={"archive": str(raw_text_parser()), "batch_size": 8})
    else:
        nlp.add_pipe("green_nlp_classifier", config={"archive": str(dan_archive()), "batch_size": 8})
    return nlp


SPACY_PARSER_TEXTS = ["The cat sat on the mat.", " ".join(["word"] * 1001), "A dog barked.", "Birds sing."]
SPACY_CLASSIFIER_TEXTS = ["a fine and moving film", "binary \x00 junk", "dull , flat and far too long", ""]


def _spacy_cases() -> list[Case]:
    def parses(doc: Any) -> Any:
        return [(t.head.i, t.dep_, t.pos_) for t in doc]

    def cats(doc: Any) -> Any:
        return dict(doc.cats)

    return [
        Case(
            "nlp.pipe: one over-long doc among good ones",
            "spaCy nlp.pipe with green_nlp_parser (raw-text parser)",
            "the 1,001-word doc flagged in doc._.green_error (max_sentence_length), the other docs parsed as alone",
            lambda: lines.spacy_pipe(spacy_pipeline("parser"), SPACY_PARSER_TEXTS, 8),
            check=lines.spacy_check(
                SPACY_PARSER_TEXTS, {1: "max_sentence_length=1000"}, parses, lambda text: spacy_pipeline("parser")(text)
            ),
            entry=SPACY,
        ),
        Case(
            "nlp.pipe: one doc with a NUL among good ones",
            "spaCy nlp.pipe with green_nlp_classifier (DAN)",
            "the doc holding a NUL and the empty doc flagged in doc._.green_error, the other docs classified as alone",
            lambda: lines.spacy_pipe(spacy_pipeline("classifier"), SPACY_CLASSIFIER_TEXTS, 8),
            check=lines.spacy_check(
                SPACY_CLASSIFIER_TEXTS,
                {1: "NUL", 3: "is empty"},
                cats,
                lambda text: spacy_pipeline("classifier")(text),
            ),
            entry=SPACY,
        ),
    ]


def other_cases(folder: Path) -> dict[str, Case]:
    from green_nlp.dataset_readers import read_conllu as read_sentences

    sentence = next(read_sentences(BAD / "conllu_1000_token_sentence.conllu"))
    payload_archive = archive_with_pickled_code(folder)
    malformed = BAD / "conllu_one_malformed_sentence.conllu"
    cases = [
        Case(
            "mismatched teacher/student vocabularies",
            "allennlp train with the green_distillation callback",
            "ConfigurationError naming the namespace and the fix (the teacher's vocabulary)",
            lambda: train(student_with_its_own_vocabulary(folder)),
            error=["vocabulary differs from the teacher's", "from_files"],
            error_types=(ConfigurationError,),
            entry=TRAIN,
        ),
        Case(
            "archive with a pickled code payload",
            "load_archive",
            "refused (torch.load(weights_only=True)), named, with no advice to unpickle; the payload never runs",
            lambda: load_without_running(payload_archive, folder / "payload_ran"),
            error=["will not load pickled code"],
            error_types=(pickle.UnpicklingError,),
            entry=ARCHIVES,
        ),
        Case(
            "missing archive",
            "load_archive",
            "error naming the path",
            lambda: load_archive(folder / "nowhere" / "model.tar.gz"),
            error=["nowhere"],
            error_types=(FileNotFoundError, ConfigurationError),
            entry=ARCHIVES,
        ),
        Case(
            "truncated archive: temporary folder",
            "load_archive with a private temp dir",
            "refused, and no half-extracted temporary folder left",
            lambda: temp_folders_left(lambda: load_archive(BAD / "archive_truncated.tar.gz")),
            check=no_leftover_check("truncated or corrupt"),
            entry=ARCHIVES,
        ),
        Case(
            "archive with a ../ member after good ones: temporary folder",
            "load_archive with a private temp dir",
            "refused, and no half-extracted temporary folder left",
            lambda: temp_folders_left(lambda: load_archive(traversal_archive())),
            check=no_leftover_check("was refused"),
            entry=ARCHIVES,
        ),
        Case(
            "archive without config.json: temporary folder",
            "load_archive with a private temp dir",
            "a ConfigurationError naming the archive as no model archive, and no temporary folder left",
            lambda: temp_folders_left(lambda: load_archive(archive_without_config())),
            check=no_leftover_check("holds no config.json"),
            entry=ARCHIVES,
        ),
        Case(
            "1,000-token sentence (JSON words)",
            "green_dependency_parser predictor",
            "parsed into one well-formed tree (the limit is 1,000)",
            lambda: parse_words(sentence.words, sentence.upos),
            check=lambda record: (is_tree(record["sentences"][0]["heads"]), "parsed into one tree"),
            entry=PREDICT,
        ),
        Case(
            "1,001-token sentence (JSON words)",
            "green_dependency_parser predictor",
            "an error record naming max_sentence_length, the rest of the file goes on",
            lambda: parse_words(sentence.words + ["."], sentence.upos + ["PUNCT"]),
            check=long_sentence_check(1000),
            entry=PREDICT,
        ),
        Case(
            "conllu_one_malformed_sentence.conllu (strict)",
            "ConlluDependenciesReader (training default)",
            "error at file:4 (ID '1.x'): training stops at the first malformed line",
            lambda: read_conllu(malformed),
            error=["{file}:4:", "'1.x' is not a word ID"],
            file=malformed,
        ),
        Case(
            "classifier_unseen_class.tsv (teacher)",
            "allennlp evaluate's loop on a basic_classifier read by "
            "green_text_classification (the MiniLM teacher's reader and model)",
            "evaluated; the example of a class the model never saw counts as wrong (accuracy at most 3/4), no KeyError",
            lambda: evaluate_file(BAD / "classifier_unseen_class.tsv", teacher_like_classifier()),
            check=unseen_gold_check("accuracy", 3 / 4),
            file=BAD / "classifier_unseen_class.tsv",
            entry=EVALUATE,
        ),
    ]
    cases += _per_line_cases() + _spacy_cases()
    return {case.name: case for case in cases}
