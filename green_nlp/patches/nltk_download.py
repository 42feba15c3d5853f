"""Keep `nltk.download` quiet in green-nlp's AllenNLP commands.

allennlp-models asks nltk to download two corpora when it is imported, which offline prints eight
lines of errors (to `print_error_to`, even with `quiet=True`) before every `green-nlp train`,
`green-nlp predict`, ...; green_nlp needs neither corpus. The replacement passes `quiet=True` and an
in-memory `print_error_to`, and returns what nltk's own `download` returns (False when offline).

Applied by `green_nlp.cli` before allennlp-models is imported, and nowhere else: a program that uses
nltk itself keeps nltk's own messages.
"""

import io
from typing import Any

from green_nlp.patches.versions import WrittenFor

# nltk's `download(info_or_id, download_dir, quiet, force, prefix, halt_on_error, raise_on_error, print_error_to)`
WRITTEN_FOR = WrittenFor("nltk", "3.10.4")


def apply() -> bool:
    """Replace `nltk.download` by a quiet wrapper; False when nltk is absent or already wrapped."""
    try:
        import nltk
    except ImportError:
        return False
    download = nltk.download
    if getattr(download, "_green_quiet", False):
        return False

    def download_quietly(*args: Any, **kwargs: Any) -> Any:
        return download(*args, **{**kwargs, "quiet": True, "print_error_to": io.StringIO()})

    download_quietly._green_quiet = True  # type: ignore[attr-defined]
    nltk.download = download_quietly
    return True
