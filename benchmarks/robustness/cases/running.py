"""Run a case and judge it: handled when it ends in the documented outcome; the record has no path
of this machine."""

import re
import traceback
from pathlib import Path
from typing import Any, Optional

from benchmarks.common import REPO
from benchmarks.robustness.cases.api import api_cases
from benchmarks.robustness.cases.case import Case, Wanted
from benchmarks.robustness.cases.cli import cli_cases
from benchmarks.robustness.cases.doors import door_cases
from benchmarks.robustness.cases.files import file_cases
from benchmarks.robustness.cases.folders import folder_cases
from benchmarks.robustness.cases.other import other_cases
from benchmarks.robustness.cases.scrub import scrub, scrub_all
from benchmarks.robustness.cases.server import server_cases


def _innermost(error: BaseException) -> str:
    frame = traceback.extract_tb(error.__traceback__)[-1]
    where = re.sub(r".*/(site-packages|lib/python3\.\d+)/", "", frame.filename).replace(str(REPO) + "/", "")
    return f"{where}:{frame.lineno}"


def _holds(message: str, wanted: Wanted, file: Optional[Path]) -> bool:
    """Whether `message` holds the fragment (`{file}`: the case's file), or one of the alternatives."""
    options = (wanted,) if isinstance(wanted, str) else wanted
    return any(option.replace("{file}", str(file)) in message for option in options)


def run_case(case: Case) -> dict[str, Any]:
    detail: dict[str, Any] = {
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
        missing = [part for part in (case.error or []) if not _holds(message, part, case.file)]
        handled = case.error is not None and isinstance(error, case.error_types) and not missing
        detail.update(
            handled=handled, outcome=scrub(f"{type(error).__name__}: {message[:300]}"), raised_at=_innermost(error)
        )
        if not handled:
            detail["why_not_handled"] = scrub(
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
    extra: dict[str, Any] = {}
    try:
        ok, what, *more = case.check(result)
        extra = more[0] if more else {}
    except Exception as error:  # noqa: BLE001  a result the check cannot read is a wrong result
        ok, what = False, f"unreadable result: {type(error).__name__}: {error}"
    detail.update(handled=ok, outcome=scrub(what), **{key: scrub_all(value) for key, value in extra.items()})
    if not ok:
        detail["why_not_handled"] = "wrong result"
    return detail


def all_cases(folder: Path) -> dict[str, Case]:
    """Every case, in running order: the server's cases last (the last one stops it with SIGTERM)."""
    cases = [*file_cases().values(), *other_cases(folder).values()]
    cases += api_cases() + folder_cases() + cli_cases() + door_cases() + server_cases()
    table = {case.name: case for case in cases}
    if len(table) != len(cases):
        raise ValueError("two cases share a name")
    return table
