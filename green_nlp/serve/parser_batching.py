"""The parser's batches, cut by sentence length before they reach onnxruntime.

The runtime's `parse_many` sorts the sentences of a window of lines by length and cuts them into
fixed-size model calls (`green_nlp.runtime.length_batches`): right for a file, where a window holds
hundreds of sentences. A server's micro-batch is a few unrelated requests, 3-word and 60-word
sentences side by side, and a fixed batch size there would still pad short sentences to long ones
(the LSTM then spends most of its time on padding). Here the sentences of all texts are sorted by
length and cut into runs where padding stays small, each run one model call, so the number of calls
follows how different the lengths are, not a batch size; the trees go back to their texts in order.
It only uses the runtime's public pieces (`sentences_of`, `parse_sentences`, `mark_multiword_tokens`).
"""

from typing import Any

from green_nlp.runtime.parser_results import ParsedDoc

# a run ends where the next sentence would add more than this many padding words to it: about
# what one more model call costs, so a cut never costs more than the padding it saves
PADDING_BUDGET = 16


def length_runs(lengths: list[int], budget: int = PADDING_BUDGET) -> list[list[int]]:
    """Indices of `lengths` in ascending length, cut where padding to the next length would cost
    more than `budget` words."""
    runs: list[list[int]] = []
    for index in sorted(range(len(lengths)), key=lengths.__getitem__):
        if runs and len(runs[-1]) * (lengths[index] - lengths[runs[-1][-1]]) <= budget:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def parse_texts(runtime: Any, texts: list[str]) -> list[ParsedDoc]:
    """`runtime.parse_many(texts)`, with its sentences batched by length."""
    if getattr(runtime.inputs, "needs_upos", False):
        return list(runtime.parse_many(texts, batch_size=len(texts)))  # raises what raw text cannot do
    sentences: list[tuple[int, str, list[str]]] = [
        (t, sentence, words)
        for t, text in enumerate(texts)
        for sentence, words in runtime.sentences_of(text)  # InputError for a text it cannot take
    ]
    parsed: list[Any] = [None] * len(sentences)
    for run in length_runs([len(words) for _, _, words in sentences]):
        trees = runtime.parse_sentences([(sentences[i][2], None) for i in run], batch_size=len(run))
        for i, tree in zip(run, trees):
            tree.text = sentences[i][1]
            runtime.mark_multiword_tokens(tree)
            parsed[i] = tree
    docs = [ParsedDoc() for _ in texts]
    for (t, _, _), tree in zip(sentences, parsed):
        docs[t].sentences.append(tree)
    return docs
