"""Size checks for text-field embedders, run when a model is built.

A character encoder whose `embedding_dim` differs from its character embedding's size builds
fine and then fails on the first batch with a convolution error 37 frames deep in torch; checked
here, the config error names both numbers before any data is read.
"""

from typing import Any

from allennlp.common.checks import ConfigurationError
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder, TextFieldEmbedder
from allennlp.modules.token_embedders import TokenCharactersEncoder


def _inner(module: Any) -> Any:
    """The module inside allennlp's `TimeDistributed` wrapper (or the module itself)."""
    return getattr(module, "_module", module)


def check_character_encoders(text_field_embedder: TextFieldEmbedder) -> None:
    """Raise ConfigurationError when a `character_encoding` embedder's character embedding size is
    not its encoder's input size."""
    if not isinstance(text_field_embedder, BasicTextFieldEmbedder):
        return
    for name, embedder in text_field_embedder._token_embedders.items():
        if not isinstance(embedder, TokenCharactersEncoder):
            continue
        given = _inner(embedder._embedding).get_output_dim()
        expected = _inner(embedder._encoder).get_input_dim()
        if given != expected:
            raise ConfigurationError(
                f"token embedder {name!r}: the character embedding gives {given} numbers per character "
                f"(embedding.embedding_dim {given}) but its encoder takes {expected} (encoder.embedding_dim "
                f"{expected}); make them equal"
            )
