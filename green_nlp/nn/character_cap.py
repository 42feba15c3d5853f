"""Character ids cut to the ONNX runtime's `MAX_WORD_CHARACTERS`, for the models with a character
encoder, so that the AllenNLP predictor and the runtime read the same characters of a word."""

from allennlp.data import TextFieldTensors

from green_nlp.runtime.parser_inputs import MAX_WORD_CHARACTERS


def capped_characters(words: TextFieldTensors) -> TextFieldTensors:
    """The character ids cut to a word's first `MAX_WORD_CHARACTERS`, as the ONNX runtime reads them:
    one 50,000-character word would pad every word of its batch to that width (gigabytes)."""
    capped = {}
    for key, tensors in words.items():
        chars = tensors.get("token_characters")
        if chars is not None and chars.dim() == 3 and chars.size(-1) > MAX_WORD_CHARACTERS:
            tensors = {**tensors, "token_characters": chars[..., :MAX_WORD_CHARACTERS]}
        capped[key] = tensors
    return capped
