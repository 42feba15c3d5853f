"""HTML fragments the page shows, made on the server from the runtime's JSON.

The dependency tree and the entities are drawn by spaCy's displaCy (`manual=True` takes plain
dicts, so no spaCy pipeline or model is needed); the class probabilities are plain HTML bars.
Everything is inline markup: the page fetches nothing from elsewhere.
"""

import html
import re
from typing import Any


def dependency_svg(parse: dict[str, Any]) -> str:
    """One displaCy SVG per sentence of a parse ({"sentences": [{"words", "heads", "deprels", "upos"}]})."""
    from spacy import displacy

    docs = [displacy_dep(sentence) for sentence in parse.get("sentences", [])]
    if not docs:
        return '<p class="empty">No words to parse.</p>'
    markup = displacy.render(
        docs,
        style="dep",
        manual=True,
        page=False,
        jupyter=False,
        options={"compact": True, "distance": 100, "offset_x": 40},
    )
    return SVG_SIZE.sub(_with_view_box, markup)


# displaCy's SVGs have a fixed width and height but no viewBox; with one, CSS can shrink a long
# sentence's tree to the page's width instead of cutting it off
SVG_SIZE = re.compile(r'<svg ([^>]*?)width="([\d.]+)" height="([\d.]+)"')


def _with_view_box(match: "re.Match[str]") -> str:
    attributes, width, height = match.groups()
    return f'<svg {attributes}width="{width}" height="{height}" viewBox="0 0 {width} {height}"'


def displacy_dep(sentence: dict[str, Any]) -> dict[str, Any]:
    """displaCy's manual "dep" input: words with their UPOS, one arc from each head to its dependent."""
    words, heads, deprels = sentence["words"], sentence["heads"], sentence["deprels"]
    tags = sentence.get("upos") or [""] * len(words)
    arcs = []
    for i, (head, label) in enumerate(zip(heads, deprels)):
        if head == 0:  # the root has no arc; displaCy shows its label nowhere
            continue
        h = head - 1
        arcs.append({"start": min(i, h), "end": max(i, h), "label": label, "dir": "left" if i < h else "right"})
    return {"words": [{"text": word, "tag": tag} for word, tag in zip(words, tags)], "arcs": arcs}


def entity_html(tagged: dict[str, Any]) -> str:
    """The tagger's words with its spans ({"start", "end" (exclusive), "label"} over word indices)
    highlighted by displaCy's "ent" style."""
    from spacy import displacy

    words: list[str] = list(tagged.get("words") or [])
    starts, position = [], 0
    for word in words:
        starts.append(position)
        position += len(word) + 1
    ents = []
    for span in tagged.get("spans") or []:
        start, end = int(span["start"]), int(span["end"])
        if 0 <= start < end <= len(words):
            ents.append({"start": starts[start], "end": starts[end - 1] + len(words[end - 1]), "label": span["label"]})
    doc = {"text": " ".join(words), "ents": ents, "title": None}
    return displacy.render(doc, style="ent", manual=True, page=False, jupyter=False)


def probability_bars(classified: dict[str, Any]) -> str:
    """One bar per class, longest first, the predicted label marked."""
    rows = sorted(zip(classified.get("label_names", []), classified.get("probs", [])), key=lambda row: -row[1])
    bars = []
    for label, probability in rows:
        chosen = " chosen" if label == classified.get("label") else ""
        bars.append(
            f'<div class="bar-row{chosen}"><span class="bar-label">{html.escape(str(label))}</span>'
            f'<span class="bar"><span class="bar-fill" style="width:{100 * probability:.1f}%"></span></span>'
            f'<span class="bar-value">{probability:.3f}</span></div>'
        )
    return '<div class="bars">' + "".join(bars) + "</div>"


RENDERERS = {"parse": dependency_svg, "tag": entity_html, "classify": probability_bars}


def render(task: str, result_json: dict[str, Any]) -> str:
    return RENDERERS[task](result_json)
