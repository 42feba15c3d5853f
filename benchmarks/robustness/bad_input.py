"""Bad input through the real loaders and commands: is each case handled?

Every file in `tests/bad_inputs/` (README.md aside) has a row in `file_cases()` (a test checks
that), and `other_cases()` adds what is not a file (vocabularies that do not match, a pickled
payload in an archive, sentences at and over the length limit) and the same files through other
entry points. A case is *handled* when it ends in the documented outcome: either an error of a
clear type whose message names the problem (and, for a data file, the file and line), or a
documented recovery whose result is checked here. Anything else is *not handled*: another
exception (its innermost frame is recorded, so a raw traceback from deep inside torch shows up as
such), no error where one was due, or a wrong result.

Line-based inputs go through each entry point that reads them (`allennlp predict`,
`allennlp green-predict`, the runtime CLI `green-nlp parse|classify`, spaCy's `nlp.pipe`; see
`benchmarks.robustness.lines`): the record says which lines were kept and which reported, and the check
wants exactly the documented bad lines reported and every other line predicted, in order, as the
same model predicts it alone.

    python -m benchmarks.robustness.bad_input [--out benchmarks/results]

Writes benchmarks/results/robustness.json (`{"cases": N, "handled": M, "by_entry_point": {...},
"details": [...]}`) and .md.
"""

import argparse
import atexit
import functools
import json
import logging
import math
import pickle
import re
import shutil
import tarfile
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError

import green_nlp  # noqa: F401  (registers readers and models, applies the patches)
from benchmarks.common import REPO
from benchmarks.robustness import lines
from benchmarks.robustness.lines import BAD

TEACHER = REPO / "fixtures" / "archives" / "tiny_parser_teacher.tar.gz"
TAGGER = REPO / "fixtures" / "ldnet" / "archives" / "tagger_origin.tar.gz"
SHIPPED_PARSER = "en-ewt-parser"  # the runtime's shipped model (pretrained/)
NOT_CASES = {"README.md"}

Outcome = Tuple[bool, str]  # (as documented?, what happened); a third item adds fields to the record

# entry points, as results are counted
READERS = "dataset readers"  # what allennlp train / evaluate / predict --use-dataset-reader read files with
TRAIN, ARCHIVES, PREDICT, EVALUATE = "allennlp train", "load_archive", "allennlp predict", "allennlp evaluate"
GREEN_PREDICT, SPACY, RUNTIME = "green-predict", "spaCy components", "runtime CLI"


@dataclass
class Case:
    """One bad input. `run` returns a value for `check`, or raises; `error` lists what a proper
    error message must contain (`{file}` is the file's path), or is None where no error is due."""

    name: str
    through: str
    expected: str
    run: Callable[[], Any]
    error: Optional[List[str]] = None
    error_types: Tuple[type, ...] = (ValueError, ConfigurationError, FileNotFoundError, pickle.UnpicklingError)
    check: Optional[Callable[[Any], Any]] = None
    file: Optional[Path] = None
    entry: str = READERS


# ---------------------------------------------------------------------------- real loaders
def read_conllu(path: Path) -> list:
    from green_nlp.dataset_readers import ConlluDependenciesReader

    return list(ConlluDependenciesReader().read(str(path)))


def read_tagging(path: Path, encoding: str) -> list:
    from allennlp.data import DatasetReader

    return list(DatasetReader.by_name("green_conll_tagging")(encoding=encoding).read(str(path)))


def read_text_examples(path: Path) -> Any:
    from green_nlp.dataset_readers.text_classification import read_examples

    return read_examples(str(path))


def read_classification(path: Path) -> list:
    from allennlp.data import DatasetReader

    return list(DatasetReader.by_name("green_text_classification")().read(str(path)))


def train(config: Path, overrides: str = "") -> Any:
    """What `allennlp train CONFIG` runs, in this process, into a throw-away folder."""
    import os

    from allennlp.commands.train import train_model_from_file

    cwd = os.getcwd()
    os.chdir(REPO)  # configs name fixture paths relative to the repository root
    try:
        with tempfile.TemporaryDirectory() as serialization_dir:
            return train_model_from_file(str(config), serialization_dir, overrides=overrides, force=True)
    finally:
        os.chdir(cwd)


def load_archive(path: Path) -> Any:
    from allennlp.models.archival import load_archive as allennlp_load_archive

    return allennlp_load_archive(str(path))


def evaluate_file(path: Path, archive_path: Path = TEACHER) -> Dict[str, float]:
    """`allennlp evaluate`'s loop (its `evaluate` over the archive's validation reader) on one file."""
    from allennlp.data.data_loaders import SimpleDataLoader
    from allennlp.training.util import evaluate

    archive = load_archive(archive_path)
    loader = SimpleDataLoader(list(archive.validation_dataset_reader.read(str(path))), 32)
    loader.index_with(archive.model.vocab)
    return evaluate(archive.model, loader, cuda_device=-1)


def parse_words(words: List[str], upos: List[str]) -> Dict[str, Any]:
    """One JSON line through the parser's predictor (what `allennlp predict` / `green-predict` run)."""
    from allennlp.predictors import Predictor

    predictor = Predictor.from_archive(
        load_archive(TEACHER), "green_dependency_parser", extra_args={"output_format": "json"}
    )
    return predictor.predict_batch_json([{"words": words, "upos": upos, "line": 1}])[0]


# ------------------------------------------------------- models trained or exported once per run
@functools.lru_cache(maxsize=None)
def work_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="robustness_"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _trained(config: Path, name: str, overrides: str = "") -> Path:
    """`allennlp train CONFIG -s FOLDER` (in this process); the archive's path."""
    import os

    from allennlp.commands.train import train_model_from_file

    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        train_model_from_file(str(config), str(work_folder() / name), overrides=overrides, force=True)
    finally:
        os.chdir(cwd)
    return work_folder() / name / "model.tar.gz"


@functools.lru_cache(maxsize=None)
def dan_archive() -> Path:
    """The tiny n-gram DAN of the tests (fixture SST-2 sentences, seconds)."""
    return _trained(
        REPO / "fixtures" / "dan" / "dan_experiment.jsonnet",
        "dan",
        json.dumps({"trainer.num_epochs": 6, "trainer.patience": 6}),
    )


@functools.lru_cache(maxsize=None)
def raw_text_parser() -> Path:
    """The quickstart parser (words + characters, predicts UPOS): reads raw text."""
    return _trained(REPO / "training_configs" / "parser" / "quickstart.jsonnet", "quickstart")


@functools.lru_cache(maxsize=None)
def teacher_like_classifier() -> Path:
    """allennlp's `basic_classifier` read by `green_text_classification`, as the MiniLM teacher is
    built (training_configs/dan/teacher.libsonnet), with a small word embedding in place of MiniLM."""
    reader = {"type": "green_text_classification", "skip_unlabeled": True}
    config = {
        "dataset_reader": reader,
        "validation_dataset_reader": reader,
        "train_data_path": "fixtures/dan/sst2_train.tsv",
        "validation_data_path": "fixtures/dan/sst2_dev.tsv",
        "model": {
            "type": "basic_classifier",
            "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 8}}},
            "seq2vec_encoder": {"type": "boe", "embedding_dim": 8, "averaged": True},
        },
        "data_loader": {"batch_size": 8, "shuffle": False},
        "trainer": {"num_epochs": 2, "optimizer": {"type": "adam", "lr": 0.05}, "cuda_device": -1},
    }
    path = work_folder() / "teacher_like.json"
    path.write_text(json.dumps(config))
    return _trained(path, "teacher_like")


@functools.lru_cache(maxsize=None)
def dan_folder() -> Path:
    """The DAN exported for the torch-free runtime (`allennlp green-export`)."""
    from green_nlp.export import export_archive

    return Path(export_archive(dan_archive(), work_folder() / "dan_onnx"))


@functools.lru_cache(maxsize=None)
def predictor(archive_path: Path, name: Optional[str] = None, json_output: bool = True) -> Any:
    from allennlp.predictors import Predictor

    extra = {"output_format": "json"} if json_output and name == "green_dependency_parser" else None
    return Predictor.from_archive(load_archive(archive_path), name, extra_args=extra)


@functools.lru_cache(maxsize=None)
def runtime_model(name: str) -> Any:
    from green_nlp.runtime import load

    return load(name)


def predict_with_reader(path: Path, output_format: str, skip_malformed: bool = False) -> Tuple[str, List[str]]:
    """`allennlp predict TEACHER FILE --use-dataset-reader [-o skip_malformed]`: AllenNLP's
    `_PredictManager` over the archive's validation reader; the output and the reader's reports."""
    from allennlp.commands.predict import _PredictManager
    from allennlp.models.archival import load_archive as allennlp_load_archive
    from allennlp.predictors import Predictor

    overrides = json.dumps({"validation_dataset_reader.skip_malformed": True}) if skip_malformed else ""
    archive = allennlp_load_archive(str(TEACHER), overrides=overrides)
    parser = Predictor.from_archive(archive, "green_dependency_parser", extra_args={"output_format": output_format})
    out = work_folder() / f"{path.stem}.{output_format}"
    _PredictManager(parser, str(path), str(out), 4, False, True).run()
    return out.read_text(encoding="utf-8"), list(getattr(parser._dataset_reader, "malformed", []))


def temp_folders_left(run: Callable[[], Any]) -> Tuple[str, int]:
    """(the error `run` raised, temporary folders it left) with a private temp dir."""
    private = Path(tempfile.mkdtemp(prefix="robustness_tmp_"))
    saved, tempfile.tempdir = tempfile.tempdir, str(private)
    try:
        run()
        message = "no error"
    except ConfigurationError as error:
        message = str(error)
    finally:
        tempfile.tempdir = saved
    left = len(list(private.iterdir()))
    shutil.rmtree(private, ignore_errors=True)
    return message, left


def _tar_of(name: str, members: List[Tuple[str, bytes]]) -> Path:
    import io

    path = work_folder() / name
    with tarfile.open(path, "w:gz") as tar:
        for member, data in members:
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _traversal_archive() -> Path:
    return _tar_of("traversal.tar.gz", [("config.json", b"{}"), ("vocabulary/x.txt", b"a\n"), ("../escaped.txt", b"x")])


def _archive_without_config() -> Path:
    return _tar_of("no_config.tar.gz", [("notes.txt", b"not a model")])


# ------------------------------------------------------------------------------ checks
def is_tree(heads: List[int]) -> bool:
    """One root, every word reaches it."""
    if sum(h == 0 for h in heads) != 1:
        return False
    for start in range(1, len(heads) + 1):
        seen, node = set(), start
        while node != 0:
            if node in seen:
                return False
            seen.add(node)
            node = heads[node - 1]
    return True


def crlf_check(instances: list) -> Outcome:
    words = [t.text for t in instances[0].fields["words"].tokens]
    labels = instances[0].fields["head_tags"].labels
    ok = words == ["The", "cat"] and labels == ["det", "root"]
    return ok, f"read like LF: words {words}, relations {labels}"


def thousand_token_check(instances: list) -> Outcome:
    n = len(instances[0].fields["words"].tokens)
    if n != 1000:
        return False, f"read {n} words instead of 1000"
    sentence = instances[0].fields["metadata"].metadata["sentence"]
    parsed = parse_words(sentence.words, sentence.upos)
    heads = parsed["sentences"][0]["heads"]
    return is_tree(heads) and len(heads) == 1000, f"read in full and parsed into a {len(heads)}-word tree"


def classifier_empty_lines_check(path: Path) -> Callable[[list], Outcome]:
    """The documented rule (blank lines and lines with empty text are skipped): count them here
    from the raw file, independently of the reader."""

    def check(instances: list) -> Outcome:
        lines = path.read_text(encoding="utf-8").splitlines()[1:]  # header
        expected = [line.split("\t", 1)[1].split() for line in lines if "\t" in line and line.split("\t", 1)[1].strip()]
        got = [[t.text for t in instance.fields["tokens"].tokens] for instance in instances]
        ok = got == expected and all(got)
        return ok, f"{len(got)} examples read, {len(lines) - len(got)} blank or empty-text lines skipped"

    return check


def unseen_relations_check(metrics: Dict[str, float]) -> Outcome:
    ok = metrics["LAS"] == 0.0 and metrics["UAS"] > 0.5
    return ok, f"evaluated: UAS {metrics['UAS']:.2f}, LAS {metrics['LAS']:.2f} (every relation unseen)"


def long_sentence_check(limit: int) -> Callable[[Dict[str, Any]], Outcome]:
    def check(record: Dict[str, Any]) -> Outcome:
        ok = "error" in record and f"max_sentence_length={limit}" in record["error"]
        return ok, f"error record instead of a parse: {record.get('error', record)!s:.120}"

    return check


def words_check(expected: List[List[str]]) -> Callable[[list], Outcome]:
    def check(instances: list) -> Outcome:
        got = [[t.text for t in instance.fields[_text_field(instance)].tokens] for instance in instances]
        return got == expected, f"read: {got}"

    return check


def _text_field(instance: Any) -> str:
    return "words" if "words" in instance.fields else "tokens"


def examples_check(expected: List[Tuple[str, str]]) -> Callable[[list], Outcome]:
    def check(examples: list) -> Outcome:
        got = [(e.label, e.text) for e in examples]
        return got == expected, f"read: {got}"

    return check


def unseen_gold_check(key: str, bound: float) -> Callable[[Dict[str, float]], Outcome]:
    """Evaluated (no KeyError), the loss a number, and the unseen gold labels counted wrong: `key`
    at most `bound`, the share of gold items the model can get right."""

    def check(metrics: Dict[str, float]) -> Outcome:
        ok = metrics[key] <= bound + 1e-9 and math.isfinite(metrics["loss"])
        return ok, f"evaluated: {key} {metrics[key]:.3f} (at most {bound:.3f}), loss {metrics['loss']:.3f}"

    return check


def multiword_output_check(result: Tuple[str, List[str]]) -> Outcome:
    text, _ = result
    ids = [line.split("\t")[0] for line in text.splitlines() if line and not line.startswith("#")]
    ok = ids == ["1", "2-3", "2", "3", "4", "5"]
    return ok, f"predicted; CoNLL-U IDs written {ids} (multiword token kept, empty node 4.1 dropped)"


def skip_malformed_check(path: Path) -> Callable[[Tuple[str, List[str]]], Outcome]:
    def check(result: Tuple[str, List[str]]) -> Outcome:
        text, malformed = result
        words = [
            record_words
            for record in map(json.loads, text.splitlines())
            for record_words in [s["words"] for s in record["sentences"]]
        ]
        ok = words == [["Good"], ["Also", "good"]] and len(malformed) == 1 and malformed[0].startswith(f"{path}:4:")
        extra = {"kept_lines": [1, 7], "error_lines": [4], "errors": {"4": _scrub(malformed[0]) if malformed else ""}}
        return ok, f"sentences at lines 1 and 7 predicted {words}; reported: {_scrub('; '.join(malformed))}", extra

    return check


def no_leftover_check(wanted: str) -> Callable[[Tuple[str, int]], Outcome]:
    def check(result: Tuple[str, int]) -> Outcome:
        message, left = result
        return wanted in message and left == 0, f"refused ({_scrub(message)[:100]}); {left} temporary folders left"

    return check


# ------------------------------------------------------------------------------- the cases
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


def _raw_text(family: str) -> Dict[int, str]:
    return lines.RAW_TEXT_BAD_PARSER if family == "parser" else lines.RAW_TEXT_BAD


def file_cases() -> Dict[str, Case]:
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
                _raw_text("parser"),
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


def _student_with_its_own_vocabulary(folder: Path) -> Path:
    config = folder / "student_own_vocabulary.jsonnet"
    config.write_text(
        f"local base = import '{REPO / 'fixtures' / 'parser' / 'student_experiment.jsonnet'}';\n"
        "base + { vocabulary:: {} }  // hidden: the student builds its own vocabulary\n"
    )
    return config


def load_without_running(archive: Path, marker: Path) -> Any:
    """`load_archive`, then make sure the payload (which creates `marker`) did not run."""
    try:
        return load_archive(archive)
    finally:
        if marker.exists():
            raise RuntimeError("the pickled payload ran while loading the archive")


def _archive_with_pickled_code(folder: Path) -> Path:
    unpacked = folder / "unpacked"
    with tarfile.open(TEACHER, "r:gz") as tar:
        tar.extractall(unpacked, filter="data")

    class Payload:
        def __reduce__(self):
            return (Path.touch, (folder / "payload_ran",))

    torch.save({"payload": Payload()}, unpacked / "weights.th")
    archive = folder / "model.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for item in sorted(unpacked.iterdir()):
            tar.add(item, arcname=item.name)
    return archive


def _runtime_classify_case(name: str, path: Path, bad: Dict[int, str]) -> Case:
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


def _per_line_cases() -> List[Case]:
    """The raw-text and JSON files through every line-based entry point (see benchmarks.robustness.lines)."""
    raw, parser_json, classifier_json = lines.RAW_TEXT, lines.PARSER_JSON, lines.CLASSIFIER_JSON
    bad_lines = "each bad line reported with its physical number, every other line predicted as alone, in order"

    def family_predictor(family: str) -> Any:
        archive = {"tagger": TAGGER, "classifier": dan_archive(), "parser": raw_text_parser()}[family]
        return predictor(archive, "green_dependency_parser" if family == "parser" else None)

    cases = []
    for family in ("parser", "tagger", "classifier"):
        bad = _raw_text(family)
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


@functools.lru_cache(maxsize=None)
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


def _spacy_cases() -> List[Case]:
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
            "the doc holding a NUL flagged in doc._.green_error, the other docs classified as alone",
            lambda: lines.spacy_pipe(spacy_pipeline("classifier"), SPACY_CLASSIFIER_TEXTS, 8),
            check=lines.spacy_check(
                SPACY_CLASSIFIER_TEXTS, {1: "NUL"}, cats, lambda text: spacy_pipeline("classifier")(text)
            ),
            entry=SPACY,
        ),
    ]


def other_cases(folder: Path) -> Dict[str, Case]:
    from green_nlp.dataset_readers import read_conllu as read_sentences

    sentence = next(read_sentences(BAD / "conllu_1000_token_sentence.conllu"))
    payload_archive = _archive_with_pickled_code(folder)
    malformed = BAD / "conllu_one_malformed_sentence.conllu"
    cases = [
        Case(
            "mismatched teacher/student vocabularies",
            "allennlp train with the green_distillation callback",
            "ConfigurationError naming the namespace and the fix (the teacher's vocabulary)",
            lambda: train(_student_with_its_own_vocabulary(folder)),
            error=["vocabulary differs from the teacher's", "from_files"],
            error_types=(ConfigurationError,),
            entry=TRAIN,
        ),
        Case(
            "archive with a pickled code payload",
            "load_archive",
            "refused by torch.load(weights_only=True); the payload never runs",
            lambda: load_without_running(payload_archive, folder / "payload_ran"),
            error=["Weights only load failed"],
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
            lambda: temp_folders_left(lambda: load_archive(_traversal_archive())),
            check=no_leftover_check("was refused"),
            entry=ARCHIVES,
        ),
        Case(
            "archive without config.json: temporary folder",
            "load_archive with a private temp dir",
            "a ConfigurationError naming the archive as no model archive, and no temporary folder left",
            lambda: temp_folders_left(lambda: load_archive(_archive_without_config())),
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


# ------------------------------------------------------------------------------- running
def _innermost(error: BaseException) -> str:
    frame = traceback.extract_tb(error.__traceback__)[-1]
    where = re.sub(r".*/(site-packages|lib/python3\.\d+)/", "", frame.filename).replace(str(REPO) + "/", "")
    return f"{where}:{frame.lineno}"


def _scrub(text: str) -> str:
    """Messages without this machine's paths or terminal colours."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", text).replace(str(REPO) + "/", "")
    return re.sub(r"/tmp/[^/\s]+/", "<tmp>/", text)


def _scrub_all(value: Any) -> Any:
    if isinstance(value, str):
        return _scrub(value)
    if isinstance(value, dict):
        return {key: _scrub_all(item) for key, item in value.items()}
    return value


def run_case(case: Case) -> Dict[str, Any]:
    detail: Dict[str, Any] = {
        "case": case.name.strip(),
        "entry_point": case.entry,
        "file": case.file.relative_to(REPO).as_posix() if case.file else None,
        "through": case.through,
        "expected": case.expected,
    }
    try:
        result = case.run()
    except Exception as error:  # noqa: BLE001  judging every failure is the point
        message = str(error)
        wanted = [part.replace("{file}", str(case.file)) for part in (case.error or [])]
        missing = [part for part in wanted if part not in message]
        handled = case.error is not None and isinstance(error, case.error_types) and not missing
        detail.update(
            handled=handled, outcome=_scrub(f"{type(error).__name__}: {message[:300]}"), raised_at=_innermost(error)
        )
        if not handled:
            detail["why_not_handled"] = (
                "no error was expected"
                if case.error is None
                else f"message lacks {missing}"
                if missing
                else f"{type(error).__name__} is not one of the clear error types"
            )
        return detail
    if case.check is None:
        detail.update(handled=False, outcome="no error", why_not_handled="an error was due, none was raised")
        return detail
    extra: Dict[str, Any] = {}
    try:
        ok, what, *more = case.check(result)
        extra = more[0] if more else {}
    except Exception as error:  # noqa: BLE001  a result the check cannot read is a wrong result
        ok, what = False, f"unreadable result: {type(error).__name__}: {error}"
    detail.update(handled=ok, outcome=_scrub(what), **{key: _scrub_all(value) for key, value in extra.items()})
    if not ok:
        detail["why_not_handled"] = "wrong result"
    return detail


def all_cases(folder: Path) -> Dict[str, Case]:
    return {**file_cases(), **other_cases(folder)}


def by_entry_point(details: List[Dict[str, Any]]) -> Dict[str, Dict[str, int]]:
    counts: Dict[str, Dict[str, int]] = {}
    for d in details:
        entry = counts.setdefault(d.get("entry_point", "-"), {"cases": 0, "handled": 0})
        entry["cases"] += 1
        entry["handled"] += int(d["handled"])
    return counts


def markdown(details: List[Dict[str, Any]]) -> str:
    handled = sum(d["handled"] for d in details)
    rows = [
        f"{handled} of {len(details)} bad-input cases handled.\n",
        "| entry point | cases | handled |",
        "|---|---|---|",
    ]
    rows += [f"| {entry} | {n['cases']} | {n['handled']} |" for entry, n in by_entry_point(details).items()]
    rows += ["", "| case | entry point | through | expected | handled | outcome |", "|---|---|---|---|---|---|"]
    for d in details:
        outcome = d["outcome"].replace("|", "\\|").replace("\n", " ")[:200]
        rows.append(
            f"| {d['case']} | {d.get('entry_point', '-')} | {d['through']} | {d['expected']} | "
            f"{'yes' if d['handled'] else 'NO'} | {outcome} |"
        )
    return "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the cases log their own warnings; the table says what happened
    torch.set_num_threads(1)
    present = {path.name for path in BAD.iterdir() if path.is_file()} - NOT_CASES
    with tempfile.TemporaryDirectory() as folder:
        cases = all_cases(Path(folder))
        details = [run_case(case) for name, case in cases.items() if case.file is None or case.file.name in present]
    uncovered = sorted(present - set(file_cases()))
    details += [
        {
            "case": name,
            "entry_point": "-",
            "file": f"tests/bad_inputs/{name}",
            "through": "-",
            "expected": "-",
            "handled": False,
            "outcome": "not covered by benchmarks.robustness.bad_input",
            "why_not_handled": "no case",
        }
        for name in uncovered
    ]
    results = {
        "cases": len(details),
        "handled": sum(d["handled"] for d in details),
        "by_entry_point": by_entry_point(details),
        "details": details,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "robustness.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    table = markdown(details)
    (args.out / "robustness.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
