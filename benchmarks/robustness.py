"""Bad input through the real loaders and commands: is each case handled?

Every file in `tests/bad_inputs/` has a row in `FILE_CASES` (a test checks that), and
`OTHER_CASES` adds what is not a file (vocabularies that do not match, a pickled payload in an
archive, sentences at and over the length limit). A case is *handled* when it ends in the
documented outcome: either an error of a clear type whose message names the problem (and, for a
data file, the file and line), or a documented recovery whose result is checked here. Anything
else is *not handled*: another exception (its innermost frame is recorded, so a raw traceback
from deep inside torch shows up as such), no error where one was due, or a wrong result.

    python benchmarks/robustness.py [--out benchmarks/results]

Writes benchmarks/results/robustness.json (`{"cases": N, "handled": M, "details": [...]}`) and .md.
"""
import argparse
import json
import logging
import pickle
import re
import sys
import tarfile
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[1]
BAD = REPO / "tests" / "bad_inputs"
TEACHER = REPO / "fixtures" / "archives" / "tiny_parser_teacher.tar.gz"
sys.path.insert(0, str(REPO))

import green_nlp  # noqa: E402,F401  (registers readers and models, applies the patches)
import torch  # noqa: E402
from allennlp.common.checks import ConfigurationError  # noqa: E402

Outcome = Tuple[bool, str]  # (as documented?, what happened)


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
    check: Optional[Callable[[Any], Outcome]] = None
    file: Optional[Path] = None


# ---------------------------------------------------------------------------- real loaders
def read_conllu(path: Path) -> list:
    from green_nlp.dataset_readers import ConlluDependenciesReader

    return list(ConlluDependenciesReader().read(str(path)))


def read_tagging(path: Path, encoding: str) -> list:
    from allennlp.data import DatasetReader

    return list(DatasetReader.by_name("green_conll_tagging")(encoding=encoding).read(str(path)))


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


def evaluate_file(path: Path) -> Dict[str, float]:
    """`allennlp evaluate`'s loop (its `evaluate` over the archive's reader) on one CoNLL-U file."""
    from allennlp.data.data_loaders import SimpleDataLoader
    from allennlp.training.util import evaluate

    archive = load_archive(TEACHER)
    loader = SimpleDataLoader(list(archive.validation_dataset_reader.read(str(path))), 32)
    loader.index_with(archive.model.vocab)
    return evaluate(archive.model, loader, cuda_device=-1)


def parse_words(words: List[str], upos: List[str]) -> Dict[str, Any]:
    """One JSON line through the parser's predictor (what `allennlp predict` / `green-predict` run)."""
    from allennlp.predictors import Predictor

    predictor = Predictor.from_archive(load_archive(TEACHER), "green_dependency_parser",
                                       extra_args={"output_format": "json"})
    return predictor.predict_batch_json([{"words": words, "upos": upos, "line": 1}])[0]


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


# ------------------------------------------------------------------------------- the cases
def _conllu_error(file: str, line: int, problem: str) -> Case:
    path = BAD / file
    return Case(file, "ConlluDependenciesReader (allennlp train/evaluate/predict)", f"error at {file}:{line}: {problem}",
                lambda: read_conllu(path), error=["{file}" + f":{line}:", problem], file=path)


def file_cases() -> Dict[str, Case]:
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
        Case("conllu_crlf_line_ends.conllu", "ConlluDependenciesReader", "read exactly like LF line ends",
             lambda: read_conllu(BAD / "conllu_crlf_line_ends.conllu"), check=crlf_check,
             file=BAD / "conllu_crlf_line_ends.conllu"),
        Case("conllu_1000_token_sentence.conllu", "ConlluDependenciesReader + green_dependency_parser predictor",
             "read in full; parsed into one well-formed tree",
             lambda: read_conllu(BAD / "conllu_1000_token_sentence.conllu"), check=thousand_token_check,
             file=BAD / "conllu_1000_token_sentence.conllu"),
        Case("conllu_unseen_relations.conllu", "allennlp evaluate's loop on the tiny parser archive",
             "evaluated; relations outside the model's vocabulary count as wrong labels (LAS 0, UAS kept)",
             lambda: evaluate_file(BAD / "conllu_unseen_relations.conllu"), check=unseen_relations_check,
             file=BAD / "conllu_unseen_relations.conllu"),
        Case("conll_missing_tag.conll", "green_conll_tagging reader (IOB1, CoNLL-03 columns)",
             "error at conll_missing_tag.conll:4: a column is missing",
             lambda: read_tagging(BAD / "conll_missing_tag.conll", "IOB1"),
             error=["{file}:4:", "columns"], file=BAD / "conll_missing_tag.conll"),
        Case("conll_invalid_bio.conll", "green_conll_tagging reader (BIO)",
             "error at conll_invalid_bio.conll:3: I- tag continues no span",
             lambda: read_tagging(BAD / "conll_invalid_bio.conll", "BIO"),
             error=["{file}:3:", "I-person"], file=BAD / "conll_invalid_bio.conll"),
        Case("classifier_empty_lines.tsv", "green_text_classification reader (SST-2 tsv)",
             "blank lines and lines with empty text skipped (documented), every other line read",
             lambda: read_classification(BAD / "classifier_empty_lines.tsv"),
             check=classifier_empty_lines_check(BAD / "classifier_empty_lines.tsv"),
             file=BAD / "classifier_empty_lines.tsv"),
        Case("config_wrong_dimension.jsonnet", "allennlp train (train_model_from_file)",
             "ConfigurationError naming both sizes before any training",
             lambda: train(BAD / "config_wrong_dimension.jsonnet"),
             error=["input_size is 20", "embeddings give 10"], error_types=(ConfigurationError,),
             file=BAD / "config_wrong_dimension.jsonnet"),
        Case("archive_truncated.tar.gz", "load_archive (allennlp predict/evaluate, green-predict, spaCy)",
             "ConfigurationError naming the archive as truncated or corrupt",
             lambda: load_archive(BAD / "archive_truncated.tar.gz"),
             error=["{file}", "truncated or corrupt"], error_types=(ConfigurationError,),
             file=BAD / "archive_truncated.tar.gz"),
    ]
    return {case.name: case for case in cases}


def _student_with_its_own_vocabulary(folder: Path) -> Path:
    config = folder / "student_own_vocabulary.jsonnet"
    config.write_text(f"local base = import '{REPO / 'fixtures' / 'parser' / 'student_experiment.jsonnet'}';\n"
                      "base + { vocabulary:: {} }  // hidden: the student builds its own vocabulary\n")
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


def other_cases(folder: Path) -> Dict[str, Case]:
    from green_nlp.dataset_readers import read_conllu as read_sentences

    sentence = next(read_sentences(BAD / "conllu_1000_token_sentence.conllu"))
    payload_archive = _archive_with_pickled_code(folder)
    cases = [
        Case("mismatched teacher/student vocabularies", "allennlp train with the green_distillation callback",
             "ConfigurationError naming the namespace and the fix (the teacher's vocabulary)",
             lambda: train(_student_with_its_own_vocabulary(folder)),
             error=["vocabulary differs from the teacher's", "from_files"], error_types=(ConfigurationError,)),
        Case("archive with a pickled code payload", "load_archive",
             "refused by torch.load(weights_only=True); the payload never runs",
             lambda: load_without_running(payload_archive, folder / "payload_ran"), error=["Weights only load failed"],
             error_types=(pickle.UnpicklingError,)),
        Case("missing archive", "load_archive", "error naming the path",
             lambda: load_archive(folder / "nowhere" / "model.tar.gz"), error=["nowhere"],
             error_types=(FileNotFoundError, ConfigurationError)),
        Case("1,000-token sentence (JSON words)", "green_dependency_parser predictor",
             "parsed into one well-formed tree (the limit is 1,000)",
             lambda: parse_words(sentence.words, sentence.upos),
             check=lambda record: (is_tree(record["sentences"][0]["heads"]), "parsed into one tree")),
        Case("1,001-token sentence (JSON words)", "green_dependency_parser predictor",
             "an error record naming max_sentence_length, the rest of the file goes on",
             lambda: parse_words(sentence.words + ["."], sentence.upos + ["PUNCT"]), check=long_sentence_check(1000)),
    ]
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


def run_case(case: Case) -> Dict[str, Any]:
    detail: Dict[str, Any] = {"case": case.name, "file": case.file.relative_to(REPO).as_posix() if case.file else None,
                              "through": case.through, "expected": case.expected}
    try:
        result = case.run()
    except Exception as error:  # noqa: BLE001  judging every failure is the point
        message = str(error)
        wanted = [part.replace("{file}", str(case.file)) for part in (case.error or [])]
        missing = [part for part in wanted if part not in message]
        handled = case.error is not None and isinstance(error, case.error_types) and not missing
        detail.update(handled=handled, outcome=_scrub(f"{type(error).__name__}: {message[:300]}"),
                      raised_at=_innermost(error))
        if not handled:
            detail["why_not_handled"] = ("no error was expected" if case.error is None else
                                         f"message lacks {missing}" if missing else
                                         f"{type(error).__name__} is not one of the clear error types")
        return detail
    if case.check is None:
        detail.update(handled=False, outcome="no error", why_not_handled="an error was due, none was raised")
        return detail
    try:
        ok, what = case.check(result)
    except Exception as error:  # noqa: BLE001  a result the check cannot read is a wrong result
        ok, what = False, f"unreadable result: {type(error).__name__}: {error}"
    detail.update(handled=ok, outcome=_scrub(what))
    if not ok:
        detail["why_not_handled"] = "wrong result"
    return detail


def all_cases(folder: Path) -> Dict[str, Case]:
    return {**file_cases(), **other_cases(folder)}


def markdown(details: List[Dict[str, Any]]) -> str:
    handled = sum(d["handled"] for d in details)
    lines = [f"{handled} of {len(details)} bad-input cases handled.\n", "| case | through | expected | handled | outcome |",
             "|---|---|---|---|---|"]
    for d in details:
        outcome = d["outcome"].replace("|", "\\|").replace("\n", " ")[:160]
        lines.append(f"| {d['case']} | {d['through']} | {d['expected']} | {'yes' if d['handled'] else 'NO'} | {outcome} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the cases log their own warnings; the table says what happened
    torch.set_num_threads(1)
    present = {path.name for path in BAD.iterdir() if path.is_file()}
    with tempfile.TemporaryDirectory() as folder:
        cases = all_cases(Path(folder))
        details = [run_case(case) for name, case in cases.items() if case.file is None or case.file.name in present]
    uncovered = sorted(present - set(file_cases()))
    details += [{"case": name, "file": f"tests/bad_inputs/{name}", "through": "-", "expected": "-", "handled": False,
                 "outcome": "not covered by benchmarks/robustness.py", "why_not_handled": "no case"} for name in uncovered]
    results = {"cases": len(details), "handled": sum(d["handled"] for d in details), "details": details}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "robustness.json").write_text(json.dumps(results, indent=2) + "\n")
    table = markdown(details)
    (args.out / "robustness.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
