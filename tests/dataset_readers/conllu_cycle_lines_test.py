"""A HEAD cycle is reported at a word of the cycle, not at a word that only leads into it."""

from pathlib import Path

import pytest

from green_nlp.dataset_readers import read_conllu


def _write(tmp_path: Path, heads: list[int]) -> Path:
    rows = [f"{i}\tw{i}\tw{i}\tX\t_\t_\t{head}\tdep\t_\t_" for i, head in enumerate(heads, start=1)]
    path = tmp_path / "cycle.conllu"
    path.write_text("# text = a sentence\n" + "\n".join(rows) + "\n\n", encoding="utf-8")
    return path


def test_a_word_that_is_its_own_head_is_named_at_its_line(tmp_path: Path):
    path = _write(tmp_path, [2, 2, 0])  # word 1 -> 2 -> 2: only word 2 is wrong (file line 3)
    with pytest.raises(ValueError, match=rf"{path}:3: word 2 is its own HEAD"):
        list(read_conllu(path))


def test_a_longer_cycle_names_its_words_at_the_first_ones_line(tmp_path: Path):
    path = _write(tmp_path, [3, 0, 4, 5, 3])  # word 1 leads into the cycle 3 -> 4 -> 5 -> 3
    with pytest.raises(
        ValueError, match=rf"{path}:4: words \[3, 4, 5\] form a cycle of HEAD links \(3 -> 4 -> 5 -> 3\)"
    ):
        list(read_conllu(path))
