"""The five prediction paths, each a function parsing one batch of word lists: the AllenNLP
predictor, the torch model (fp32 and int8) and the ONNX runtime (fp32 and int8). torch and
allennlp are imported only when a torch path is loaded."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.runtime.parsing.settings import BATCH_SIZES, FORMS, TORCH_FORMS, ParseBatch, Parsed


def predictor_path(predictor: Any) -> dict[int, ParseBatch]:
    """As `allennlp predict` calls the predictor: `predict_json` for one line, else `predict_batch_json`."""

    def record(output: dict[str, Any]) -> Parsed:
        sentence = output["sentences"][0]
        return sentence["heads"], sentence["deprels"], sentence.get("upos")

    def one(batch: list[list[str]]) -> list[Parsed]:
        return [record(predictor.predict_json({"words": words})) for words in batch]

    def many(batch: list[list[str]]) -> list[Parsed]:
        return [record(output) for output in predictor.predict_batch_json([{"words": words} for words in batch])]

    return {1: one, 32: many}


def torch_path(model: Any, reader: Any) -> ParseBatch:
    """The model called directly: reader -> Batch tensors -> forward + decoding, no predictor."""
    import torch
    from allennlp.data import Batch

    def parse(batch: list[list[str]]) -> list[Parsed]:
        instances = [reader.text_to_instance(words) for words in batch]
        for instance in instances:
            reader.apply_token_indexers(instance)
        tensors = Batch(instances)
        tensors.index_instances(model.vocab)
        with torch.inference_mode():
            output = model.make_output_human_readable(model(**tensors.as_tensor_dict()))
        upos = output.get("predicted_upos") or [None] * len(batch)
        return list(zip(output["predicted_heads"], output["predicted_deprels"], upos))

    return parse


def runtime_path(nlp: Any) -> ParseBatch:
    def parse(batch: list[list[str]]) -> list[Parsed]:
        return [
            (s.heads, s.deprels, s.upos)
            for s in nlp.parse_sentences([(words, None) for words in batch], batch_size=len(batch))
        ]

    return parse


def load_paths(archive_path: Path, folder: Path, forms: Sequence[str] = FORMS) -> dict[str, dict[int, ParseBatch]]:
    """form -> {batch size -> function parsing one batch of word lists}, everything on one thread."""
    paths: dict[str, dict[int, ParseBatch]] = {}
    if any(form in TORCH_FORMS for form in forms):
        import torch
        from allennlp.models.archival import load_archive
        from allennlp.predictors import Predictor

        import green_nlp

        torch.set_num_threads(1)
        green_nlp.register()
        archive = load_archive(str(archive_path), cuda_device=-1)
        model, reader = archive.model.eval(), archive.validation_dataset_reader
        if "allennlp_predictor" in forms:
            paths["allennlp_predictor"] = predictor_path(Predictor.from_archive(archive, "green_dependency_parser"))
        if "torch" in forms:
            parse = torch_path(model, reader)
            paths["torch"] = {size: parse for size in BATCH_SIZES}
        if "torch_int8" in forms:
            from green_nlp.nn.quantization import quantize_for_cpu

            parse = torch_path(quantize_for_cpu(model), reader)
            paths["torch_int8"] = {size: parse for size in BATCH_SIZES}
    from green_nlp.runtime import load

    for form, precision in (("onnx_fp32", "fp32"), ("onnx_int8", "int8")):
        if form in forms:
            parse = runtime_path(load(folder, precision=precision, threads=1))
            paths[form] = {size: parse for size in BATCH_SIZES}
    return {form: paths[form] for form in forms}
