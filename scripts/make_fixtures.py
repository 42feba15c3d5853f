"""Write green_nlp's synthetic CoNLL-U fixtures (run from the repo root; deterministic).

The sentences come from a small grammar written for these tests (subject, verb, object, optional
determiners, adjectives and prepositional phrases) so that a tiny parser can learn them in
seconds; they are not drawn from any treebank.
"""

import random
from pathlib import Path

DETS = ["the", "a", "every", "this"]
ADJS = ["small", "green", "old", "quick", "happy", "cheap"]
NOUNS = ["cat", "dog", "parser", "model", "student", "teacher", "tree", "river", "city", "book"]
VERBS = ["sees", "likes", "trains", "reads", "finds", "builds"]
ADPS = ["in", "on", "near", "with"]
ADVS = ["quickly", "often", "today"]

Token = tuple[str, str, str, int, str]  # form, upos, xpos, head (relative index or -1), deprel


class Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.tokens: list[list] = []

    def add(self, form: str, upos: str, xpos: str) -> int:
        self.tokens.append([form, upos, xpos, None, None])
        return len(self.tokens)  # 1-based id

    def attach(self, dependent: int, head: int, deprel: str) -> None:
        self.tokens[dependent - 1][3] = head
        self.tokens[dependent - 1][4] = deprel

    def noun_phrase(self, allow_pp: bool) -> int:
        modifiers = []
        if self.rng.random() < 0.8:
            modifiers.append((self.add(self.rng.choice(DETS), "DET", "DT"), "det"))
        for _ in range(self.rng.choice([0, 0, 1, 2])):
            modifiers.append((self.add(self.rng.choice(ADJS), "ADJ", "JJ"), "amod"))
        noun = self.add(self.rng.choice(NOUNS), "NOUN", "NN")
        for dependent, deprel in modifiers:
            self.attach(dependent, noun, deprel)
        if allow_pp and self.rng.random() < 0.3:
            self.attach(self.prepositional_phrase(), noun, "nmod")
        return noun

    def prepositional_phrase(self) -> int:
        adposition = self.add(self.rng.choice(ADPS), "ADP", "IN")
        noun = self.noun_phrase(allow_pp=False)
        self.attach(adposition, noun, "case")
        return noun

    def sentence(self) -> list[list]:
        subject = self.noun_phrase(allow_pp=True)
        verb = self.add(self.rng.choice(VERBS), "VERB", "VBZ")
        self.attach(subject, verb, "nsubj")
        self.attach(verb, 0, "root")
        self.attach(self.noun_phrase(allow_pp=True), verb, "obj")
        if self.rng.random() < 0.3:
            self.attach(self.prepositional_phrase(), verb, "obl")
        if self.rng.random() < 0.3:
            self.attach(self.add(self.rng.choice(ADVS), "ADV", "RB"), verb, "advmod")
        self.attach(self.add(".", "PUNCT", "."), verb, "punct")
        return self.tokens


def write_treebank(path: Path, count: int, seed: int, prefix: str) -> None:
    rng = random.Random(seed)
    blocks = []
    for index in range(count):
        tokens = Builder(rng).sentence()
        lines = [f"# sent_id = {prefix}-{index + 1}", "# text = " + " ".join(t[0] for t in tokens)]
        for i, (form, upos, xpos, head, deprel) in enumerate(tokens, start=1):
            lines.append("\t".join([str(i), form, form, upos, xpos, "_", str(head), deprel, "_", "_"]))
        blocks.append("\n".join(lines) + "\n")
    path.write_text("\n".join(blocks) + "\n", encoding="utf-8")


if __name__ == "__main__":
    root = Path("fixtures/ud")
    root.mkdir(parents=True, exist_ok=True)
    write_treebank(root / "synthetic-train.conllu", 240, seed=1, prefix="train")
    write_treebank(root / "synthetic-dev.conllu", 60, seed=2, prefix="dev")
    write_treebank(root / "synthetic-tiny.conllu", 12, seed=3, prefix="tiny")
