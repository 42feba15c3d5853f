"""Accuracy of each path's answers against gold, and whether its batch settings agree."""

from typing import Any

from benchmarks.runtime.parsing.settings import FORMS, SETTINGS, Parsed


def attachment(gold: list[dict[str, Any]], answers: list[Parsed]) -> dict[str, Any]:
    """UAS / LAS over all words (punctuation included, full relations) and UPOS accuracy, in percent."""
    words = heads = labeled = upos = 0
    tagged = False
    for sentence, (pred_heads, pred_deprels, pred_upos) in zip(gold, answers):
        for i, (head, deprel) in enumerate(zip(sentence["heads"], sentence["deprels"])):
            words += 1
            heads += pred_heads[i] == head
            labeled += pred_heads[i] == head and pred_deprels[i] == deprel
            if pred_upos is not None:
                tagged = True
                upos += pred_upos[i] == sentence["upos"][i]
    scores: dict[str, Any] = {"words": words, "uas": 100 * heads / words, "las": 100 * labeled / words}
    if tagged:
        scores["upos_accuracy"] = 100 * upos / words
    return scores


def accuracy(gold: list[dict[str, Any]], answers: dict[str, list[Parsed]]) -> dict[str, dict[str, Any]]:
    """Per path: scores of its b32 answers, whether its b1 answers (on the sentences batch 1 ran)
    and b32-sorted answers are the same, and the share of words whose head and relation equal the
    predictor's."""
    reference = answers.get("allennlp_predictor b32")
    table: dict[str, dict[str, Any]] = {}
    for form in FORMS:
        big = answers.get(f"{form} b32")
        if big is None:
            continue
        row = attachment(gold, big)
        for setting in SETTINGS:
            other = answers.get(f"{form} {setting}")
            if setting != "b32" and other is not None:
                row[f"{setting}_answers_same"] = other == big[: len(other)]
        if reference is not None:
            same = total = 0
            for (h1, d1, _), (h2, d2, _) in zip(big, reference):
                same += sum(a == b for a, b in zip(zip(h1, d1), zip(h2, d2)))
                total += len(h1)
            row["same_arcs_as_predictor"] = same / total
        table[form] = row
    return table
