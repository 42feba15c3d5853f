"""Labels after the maximum spanning tree moves a head, with hand-set, head-dependent label scores
(a trained fixture model picks the same label at any head, so it cannot tell these apart).

Four words. Greedy heads 0, 3, 2, 3 hold the cycle 2 <-> 3; the tree keeps word 1 on ROOT and
breaks the cycle where it loses least: word 2 moves from head 3 (score 5) to head 1 (score 4),
total 24 against 21 for moving word 3. Label scores are one-hot by position on both sides, so the
weight entry [label, dependent position, head position] is that pair's score: only (2, 1) scores
`det`. The graph's greedy labels (at the greedy heads) are root, obj, nsubj, obj. By hand: word 2
is scored again at head 1 and takes `det`; words 3 and 4 keep their greedy labels.
"""

import numpy as np

from green_nlp.runtime.parser import ParserRuntime

DEPRELS = ["root", "nsubj", "obj", "det"]
OUTPUTS = {
    "arc_scores": "arc_scores",
    "greedy_labels": "greedy_labels",
    "label_dep": "label_dep",
    "label_head": "label_head",
    "label_weight": "label_weight",
}


class _Session:
    """Stands in for onnxruntime: hands back fixed arrays by output name."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.arrays = arrays

    def run(self, names: list[str], feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        return [self.arrays[name] for name in names]


def _arrays() -> dict[str, np.ndarray]:
    arc = np.zeros((1, 5, 5), dtype=np.float32)
    arc[0, 1, 0] = 10.0
    arc[0, 2, 1], arc[0, 2, 3] = 4.0, 5.0
    arc[0, 3, 1], arc[0, 3, 2] = 1.0, 5.0
    arc[0, 4, 3] = 5.0
    onehot = np.eye(5, dtype=np.float32)[None]  # position p -> unit p, for dependents and heads
    weight = np.zeros((len(DEPRELS), 6, 6), dtype=np.float32)  # + the bias unit on each side
    weight[DEPRELS.index("det"), 2, 1] = 1.0
    return {
        "arc_scores": arc,
        "greedy_labels": np.array([[0, 0, 2, 1, 2]], dtype=np.int64),
        "label_dep": onehot,
        "label_head": onehot.copy(),
        "label_weight": weight,
    }


def _runtime() -> ParserRuntime:
    meta = {
        "inputs": {"words": {"vocabulary": ["@@PADDING@@", "@@UNKNOWN@@"], "oov_index": 1, "input": "words"}},
        "outputs": OUTPUTS,
        "labels": {"deprel": DEPRELS},
        "label_scorer": {"bias_x": True, "bias_y": True},
    }
    return ParserRuntime(folder=".", meta=meta, session=_Session(_arrays()))


def test_the_moved_word_is_labelled_at_its_new_head_from_its_own_row():
    tree = _runtime().parse_tokens(["a", "b", "c", "d"])
    assert tree.sentences[0].heads == [0, 1, 2, 3]
    assert tree.sentences[0].deprels == ["root", "det", "nsubj", "obj"]


def test_the_hand_set_scores_make_the_greedy_heads_a_cycle():
    arrays = _arrays()
    assert arrays["arc_scores"][0, 1:].argmax(-1).tolist() == [0, 3, 2, 3]
