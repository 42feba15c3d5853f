"""The release-speed benchmark's parts: the released tree comes from git with its own runtime, and a
worker parses with the green_nlp of the tree it is pointed at (the full run needs EWT and minutes)."""

import json

from benchmarks.common import REPO
from benchmarks.parser import release_speed
from benchmarks.parser.teacher_scale_table import PREVIOUS_RELEASE


def test_a_worker_parses_with_the_released_runtime_and_model(tmp_path):
    released = release_speed.released_tree(PREVIOUS_RELEASE, tmp_path / "released")
    assert (released / "green_nlp" / "runtime" / "parser.py").is_file()
    assert (released / "pretrained" / "en-ewt-parser" / "model.int8.onnx").is_file()
    texts, words = tmp_path / "texts.json", tmp_path / "words.json"
    texts.write_text(json.dumps(["The cat sat on the mat.", "I can't go."]), encoding="utf-8")
    words.write_text(json.dumps([["The", "cat", "sat", "."], ["I", "ca", "n't", "go", "."]]), encoding="utf-8")
    for root in (released, REPO):  # the worker asserts that it imported the green_nlp under root
        found = release_speed.run_worker(root, released / "pretrained" / "en-ewt-parser", texts, words)
        assert found["tokens"]["tokens"] == 9 and found["raw"]["tokens"] >= 9
        assert found["raw"]["seconds"] > 0 and found["tokens"]["seconds"] > 0
