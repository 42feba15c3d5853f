"""Config overrides that let an archived transformer classifier read past the length it was cut at.

AllenNLP already folds long inputs: a `pretrained_transformer` indexer and embedder given a
`max_length` split the word pieces into segments of that length, encode each, and join them, so
a pooled classifier sees the whole input. These overrides switch that on for an archive trained
with short, cut inputs (the tokenizer's `max_length`), without retraining it.
"""


def long_input_overrides(max_length: int, segment_length: int) -> dict[str, int]:
    """Read up to `max_length` word pieces in `segment_length`-piece segments (`load_archive`
    overrides; `allennlp green-label-teacher -o` takes them as JSON)."""
    if not 0 < segment_length <= max_length:
        raise ValueError(f"need 0 < segment_length <= max_length, got {segment_length} and {max_length}")
    overrides = {"model.text_field_embedder.token_embedders.tokens.max_length": segment_length}
    for reader in ("dataset_reader", "validation_dataset_reader"):
        overrides[f"{reader}.tokenizer.max_length"] = max_length
        overrides[f"{reader}.token_indexers.tokens.max_length"] = segment_length
    return overrides
