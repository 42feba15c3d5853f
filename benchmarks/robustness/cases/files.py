"""One case per file in tests/bad_inputs/."""

from allennlp.common.checks import ConfigurationError

from benchmarks.robustness import lines
from benchmarks.robustness.cases.case import (
    ARCHIVES,
    EVALUATE,
    PREDICT,
    RUNTIME,
    SHIPPED_PARSER,
    TAGGER,
    TEACHER,
    TRAIN,
    Case,
)
from benchmarks.robustness.cases.checks import (
    classifier_empty_lines_check,
    crlf_check,
    examples_check,
    multiword_output_check,
    skip_malformed_check,
    thousand_token_check,
    unseen_gold_check,
    unseen_relations_check,
    words_check,
)
from benchmarks.robustness.cases.loaders import (
    evaluate_file,
    load_archive,
    predict_with_reader,
    read_classification,
    read_conllu,
    read_tagging,
    read_text_examples,
    train,
)
from benchmarks.robustness.cases.models import dan_archive, predictor, runtime_model
from benchmarks.robustness.cases.workspace import work_folder
from benchmarks.robustness.lines import BAD


def _conllu_error(file: str, line: int, problem: str) -> Case:
    path = BAD / file
    return Case(
        file,
        "ConlluDependenciesReader (allennlp train/evaluate/predict)",
        f"error at {file}:{line}: {problem}",
        lambda: read_conllu(path),
        error=["{file}" + f":{line}:", problem],
        file=path,
    )


def _tagging_error(file: str, line: int, problem: str, encoding: str = "IOB1") -> Case:
    path = BAD / file
    return Case(
        file,
        "green_conll_tagging reader",
        f"error at {file}:{line}: {problem}",
        lambda: read_tagging(path, encoding),
        error=["{file}" + f":{line}:", problem],
        file=path,
    )


def raw_text(family: str) -> dict[int, str]:
    return lines.RAW_TEXT_BAD_PARSER if family == "parser" else lines.RAW_TEXT_BAD


def file_cases() -> dict[str, Case]:
    raw, parser_json = lines.RAW_TEXT, lines.PARSER_JSON
    cases = [
        _conllu_error("conllu_wrong_column_count.conllu", 1, "expected 10 tab-separated columns"),
        _conllu_error("conllu_non_integer_head.conllu", 2, "is not a non-negative integer"),
        _conllu_error("conllu_out_of_range_head.conllu", 1, "out of range"),
        _conllu_error("conllu_cycle_no_root.conllu", 1, "no root"),
        _conllu_error("conllu_cycle.conllu", 2, "cycle"),
        _conllu_error("conllu_two_roots.conllu", 2, "2 roots"),
        _conllu_error("conllu_empty.conllu", 1, "contains no sentences"),
        _conllu_error("conllu_blank_only.conllu", 1, "contains no sentences"),
        _conllu_error("conllu_non_utf8.conllu", 2, "not valid UTF-8"),
        _conllu_error("conllu_id_out_of_sequence.conllu", 2, "out of sequence"),
        _conllu_error("conllu_malformed_id.conllu", 3, "column 1 (ID): 'x-y' is not a word ID"),
        _conllu_error("conllu_non_ascii_head.conllu", 5, "column 7 (HEAD): HEAD '\u0663'"),
        _conllu_error("conllu_fullwidth_head.conllu", 5, "column 7 (HEAD): HEAD '\uff13'"),
        _conllu_error("conllu_nul_byte.conllu", 3, "column 2: holds a NUL byte"),
        Case(
            "conllu_crlf_line_ends.conllu",
            "ConlluDependenciesReader",
            "read exactly like LF line ends",
            lambda: read_conllu(BAD / "conllu_crlf_line_ends.conllu"),
            check=crlf_check,
            file=BAD / "conllu_crlf_line_ends.conllu",
        ),
        Case(
            "conllu_bom.conllu",
            "ConlluDependenciesReader",
            "UTF-8 byte-order mark accepted; read in full",
            lambda: read_conllu(BAD / "conllu_bom.conllu"),
            check=words_check([["The", "cat", "sleeps", "."]]),
            file=BAD / "conllu_bom.conllu",
        ),
        Case(
            "conllu_1000_token_sentence.conllu",
            "ConlluDependenciesReader + green_dependency_parser predictor",
            "read in full; parsed into one well-formed tree",
            lambda: read_conllu(BAD / "conllu_1000_token_sentence.conllu"),
            check=thousand_token_check,
            file=BAD / "conllu_1000_token_sentence.conllu",
        ),
        Case(
            "conllu_multiword_and_empty_nodes.conllu",
            "allennlp predict --use-dataset-reader (tiny parser)",
            "words read; the multiword-token line 2-3 written back before word 2; empty node 4.1 dropped",
            lambda: predict_with_reader(BAD / "conllu_multiword_and_empty_nodes.conllu", "conllu"),
            check=multiword_output_check,
            file=BAD / "conllu_multiword_and_empty_nodes.conllu",
            entry=PREDICT,
        ),
        Case(
            "conllu_one_malformed_sentence.conllu",
            "allennlp predict --use-dataset-reader -o '{\"validation_dataset_reader.skip_malformed\": true}'",
            "the malformed sentence reported as file:4: why, the sentences before and after predicted",
            lambda: predict_with_reader(BAD / "conllu_one_malformed_sentence.conllu", "json", skip_malformed=True),
            check=skip_malformed_check(BAD / "conllu_one_malformed_sentence.conllu"),
            file=BAD / "conllu_one_malformed_sentence.conllu",
            entry=PREDICT,
        ),
        Case(
            "conllu_unseen_relations.conllu",
            "allennlp evaluate's loop on the tiny parser archive",
            "evaluated; relations outside the model's vocabulary count as wrong labels (LAS 0, UAS kept)",
            lambda: evaluate_file(BAD / "conllu_unseen_relations.conllu"),
            check=unseen_relations_check,
            file=BAD / "conllu_unseen_relations.conllu",
            entry=EVALUATE,
        ),
        _tagging_error("conll_missing_tag.conll", 4, "columns"),
        _tagging_error("conll_invalid_bio.conll", 3, "I-person", "BIO"),
        _tagging_error("conll_latin1.conll", 4, "file_encoding"),
        _tagging_error("conll_empty.conll", 1, "no tagged words"),
        Case(
            "conll_bom.conll",
            "green_conll_tagging reader",
            "UTF-8 byte-order mark accepted; read in full",
            lambda: read_tagging(BAD / "conll_bom.conll", "IOB1"),
            check=words_check([["EU", "rejects", "German"]]),
            file=BAD / "conll_bom.conll",
        ),
        Case(
            "conll_unseen_tag.conll",
            "allennlp evaluate's loop on the LD-Net tagger fixture",
            "evaluated; the span of a tag type the tagger never saw counts as missed (recall at most 2/3), one warning",
            lambda: evaluate_file(BAD / "conll_unseen_tag.conll", TAGGER),
            check=unseen_gold_check("recall-overall", 2 / 3),
            file=BAD / "conll_unseen_tag.conll",
            entry=EVALUATE,
        ),
        Case(
            "classifier_empty_lines.tsv",
            "green_text_classification reader (SST-2 tsv)",
            "blank lines and lines with empty text skipped (documented), every other line read",
            lambda: read_classification(BAD / "classifier_empty_lines.tsv"),
            check=classifier_empty_lines_check(BAD / "classifier_empty_lines.tsv"),
            file=BAD / "classifier_empty_lines.tsv",
        ),
        Case(
            "classifier_bom.tsv",
            "read_examples (every classification reader)",
            "UTF-8 byte-order mark accepted; the header still recognised",
            lambda: list(read_text_examples(BAD / "classifier_bom.tsv")),
            check=examples_check([("1", "a fine film"), ("0", "a dull film")]),
            file=BAD / "classifier_bom.tsv",
        ),
        Case(
            "classifier_unseen_class.tsv",
            "allennlp evaluate's loop on the n-gram DAN",
            "evaluated; the example of a class the model never saw counts as wrong (accuracy at most 3/4)",
            lambda: evaluate_file(BAD / "classifier_unseen_class.tsv", dan_archive()),
            check=unseen_gold_check("accuracy", 3 / 4),
            file=BAD / "classifier_unseen_class.tsv",
            entry=EVALUATE,
        ),
        Case(
            "config_wrong_dimension.jsonnet",
            "allennlp train (train_model_from_file)",
            "ConfigurationError naming both sizes before any training",
            lambda: train(BAD / "config_wrong_dimension.jsonnet"),
            error=["input_size is 20", "embeddings give 10"],
            error_types=(ConfigurationError,),
            file=BAD / "config_wrong_dimension.jsonnet",
            entry=TRAIN,
        ),
        Case(
            "config_char_cnn_mismatch.jsonnet",
            "allennlp train (train_model_from_file)",
            "ConfigurationError naming both character sizes before any training",
            lambda: train(BAD / "config_char_cnn_mismatch.jsonnet"),
            error=["embedding gives 5", "encoder takes 8"],
            error_types=(ConfigurationError,),
            file=BAD / "config_char_cnn_mismatch.jsonnet",
            entry=TRAIN,
        ),
        Case(
            "archive_truncated.tar.gz",
            "load_archive (allennlp predict/evaluate, green-predict, spaCy)",
            "ConfigurationError naming the archive as truncated or corrupt",
            lambda: load_archive(BAD / "archive_truncated.tar.gz"),
            error=["{file}", "truncated or corrupt"],
            error_types=(ConfigurationError,),
            file=BAD / "archive_truncated.tar.gz",
            entry=ARCHIVES,
        ),
        Case(
            "raw_text_mixed.txt",
            f"green-nlp parse {SHIPPED_PARSER} (ONNX runtime)",
            "each bad line reported with its physical number (3, 5, 6, 7, 10, 11), lines 1, 2, 9, 12 parsed "
            "as alone, in order",
            lambda: lines.runtime_cli("parse", SHIPPED_PARSER, raw, work_folder()),
            check=lines.line_check(
                raw,
                raw_text("parser"),
                lambda text: lines.runtime_reference(runtime_model(SHIPPED_PARSER), "parse")(text),
            ),
            file=raw,
            entry=RUNTIME,
        ),
        Case(
            "classifier_json_edge_cases.jsonl",
            "allennlp predict (n-gram DAN)",
            "each bad line reported with its physical number, every other line predicted as alone, in order",
            lambda: lines.allennlp_predict(predictor(dan_archive()), lines.CLASSIFIER_JSON, work_folder()),
            check=lines.line_check(
                lines.CLASSIFIER_JSON,
                lines.CLASSIFIER_JSON_BAD,
                lambda text: lines.predictor_reference(predictor(dan_archive()))(text),
            ),
            file=lines.CLASSIFIER_JSON,
            entry=PREDICT,
        ),
        Case(
            "parser_json_wrong_types.jsonl",
            "allennlp predict (tiny parser, JSON words + upos)",
            "an error record naming the field and type for each of lines 2-7; lines 1 and 8 parsed",
            lambda: lines.allennlp_predict(predictor(TEACHER, "green_dependency_parser"), parser_json, work_folder()),
            check=lines.line_check(
                parser_json,
                lines.PARSER_JSON_BAD,
                lambda text: lines.predictor_reference(predictor(TEACHER, "green_dependency_parser"))(text),
            ),
            file=parser_json,
            entry=PREDICT,
        ),
    ]
    return {case.name: case for case in cases}
