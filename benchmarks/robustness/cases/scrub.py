"""No path of this machine goes into the results: paths shown relative to the repository."""

import re
from typing import Any

from benchmarks.common import REPO


def scrub(text: str) -> str:
    """Messages without this machine's paths or terminal colours."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", text).replace(str(REPO) + "/", "")
    return re.sub(r"/tmp/[^/\s]+/", "<tmp>/", text)


def scrub_all(value: Any) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {key: scrub_all(item) for key, item in value.items()}
    return value
