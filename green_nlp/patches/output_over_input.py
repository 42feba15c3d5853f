"""`allennlp predict` and `allennlp evaluate` refuse an output file that is one of the files they read.

allennlp 2.10.1 opens `predict --output-file` for writing before it reads the input, and `evaluate`
writes `--output-file` (metrics) and `--predictions-output-file` over whatever is there: an output
named like the input file emptied it (predict, exit 0) or replaced the evaluation data with one JSON
line (evaluate, exit 0); named like the archive, it destroyed the model after loading it. `green-nlp
predict` refused this already, before allennlp started; the `allennlp` command with
`--include-package green_nlp` did not. Both commands now stop before anything is opened for
writing, with a `ConfigurationError` naming the option and the file.
"""

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)
_PATCHED = "_green_nlp_output_checked"


def overwritten(reads: dict[str, str], writes: dict[str, Optional[str]]) -> Optional[str]:
    """Why writing `writes` (option -> path) would overwrite a file in `reads` (what it is -> path), or
    None. `-` as an input is standard input, which counts as the file it was redirected from."""
    from green_nlp.line_stream import same_file

    for option, output in writes.items():
        if not output:
            continue
        for what, path in reads.items():
            source: Any = 0 if path == "-" else Path(path)
            if same_file(source, Path(output)):
                shown = "the file standard input reads" if path == "-" else f"{what} {path}"
                return f"{option} {output} is {shown}: writing there would overwrite it; give another file name"
    return None


def _refuse_if(problem: Optional[str]) -> None:
    from allennlp.common.checks import ConfigurationError

    if problem:
        raise ConfigurationError(problem)


def _checked_predictor(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    @functools.wraps(original)
    def get_predictor(args: Any) -> Any:
        reads = {"the archive": args.archive_file, "the input file": args.input_file}
        _refuse_if(overwritten(reads, {"--output-file": args.output_file}))
        return original(args)

    setattr(get_predictor, _PATCHED, True)
    return get_predictor


# evaluate's output options and `evaluate_from_archive`'s names for them
OUTPUT_OPTIONS = (("--output-file", "metrics_output_file"), ("--predictions-output-file", "predictions_output_file"))


def _checked_evaluation(original: Callable[..., Any]) -> Callable[..., Any]:
    signature = inspect.signature(original)

    @functools.wraps(original)
    def evaluate_from_archive(archive_file: Any, input_file: str, *args: Any, **kwargs: Any) -> Any:
        reads = {"the archive": str(archive_file)}
        reads.update({f"the input file{'' if i == 0 else f' {i + 1}'}": p for i, p in enumerate(input_file.split(":"))})
        given = signature.bind_partial(archive_file, input_file, *args, **kwargs).arguments
        for option, key in OUTPUT_OPTIONS:
            for part in (given.get(key) or "").split(":"):
                _refuse_if(overwritten(reads, {option: part or None}))
        return original(archive_file, input_file, *args, **kwargs)

    setattr(evaluate_from_archive, _PATCHED, True)
    return evaluate_from_archive


def apply() -> bool:
    """Wrap predict's predictor loading and evaluate's entry point (both looked up when the command
    runs, after `--include-package`); True if this call installed the wrappers."""
    from allennlp.commands import evaluate, predict

    if getattr(predict._get_predictor, _PATCHED, False):
        return False
    predict._get_predictor = _checked_predictor(predict._get_predictor)  # type: ignore[assignment]
    evaluate.evaluate_from_archive = _checked_evaluation(evaluate.evaluate_from_archive)
    return True
