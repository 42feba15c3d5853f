"""Batches of sentences of similar length, so that a model call pads little.

A padded batch costs what its longest sentence costs times its size: 32 sentences in file order
(EWT's range from 1 to 81 words) spend most of an LSTM's work on padding, while the same sentences
sorted by length first run about 2-3x faster per token (`benchmarks/runtime/sort_window.py`). The
runtime reads a window of texts, sorts their sentences by length, cuts them into batches and puts
the answers back in input order. Sorting is stable, so a window always gives the same batches.
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from numbers import Integral
from typing import Any, TypeVar, Union

from green_nlp.runtime.errors import InputError, InputFailure

Item = TypeVar("Item")
Split = TypeVar("Split")

# texts read ahead and sorted together: large enough that most batches hold sentences of one or two
# lengths, small enough that memory stays a few MB and the first answers come soon
DEFAULT_SORT_WINDOW = 512


def check_batching(batch_size: int, sort_window: int) -> None:
    """Refuse settings that cannot batch anything, naming the setting."""
    check_count("batch_size", batch_size)
    check_count("sort_window", sort_window, " (1: no sorting across texts)")


def check_count(name: str, value: Any, note: str = "") -> None:
    """A positive whole number, or a ValueError (TypeError for another type) naming the setting:
    `"2"`, `2.0` or `True` compared or sliced with ended in an error that named none."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be a positive whole number, got {value!r} ({type(value).__name__})")
    if value < 1:
        raise ValueError(f"{name} must be positive{note}, got {value}")


def windows(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    """Consecutive lists of `size` items (the last may be shorter); streams any iterable."""
    iterator = iter(items)
    while True:
        window = list(islice(iterator, size))
        if not window:
            return
        yield window


def split_windows(
    texts: Iterable[str], sort_window: int, split: Callable[[str], Split]
) -> Iterator[list[Union[Split, InputFailure]]]:
    """Windows of `sort_window` texts, each text `split` (into its sentences), or, where `split`
    refuses it, an `InputFailure` in its place naming it by its 0-based index (`texts[2] ...`)."""
    for number, window in enumerate(windows(texts, sort_window)):
        groups: list[Union[Split, InputFailure]] = []
        for offset, text in enumerate(window):
            try:
                groups.append(split(text))
            except InputError as error:
                groups.append(InputFailure(error.at(number * sort_window + offset, "texts")))
        yield groups


def by_length(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices into `lengths`, shortest first, cut into batches of at most `batch_size`."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]
