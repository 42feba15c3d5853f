"""The models a server holds: each runtime model with its name, family, tasks and card facts."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from green_nlp.runtime.errors import InputKindError, ModelFolderError

# task (the URL's last part) -> the runtime method that does it on many texts; a model offers the
# tasks its runtime class has, so a new family (the tagger) works as soon as its class exists
TASK_METHODS = {"parse": "parse_many", "tag": "tag_many", "classify": "classify_many"}
# task -> output formats, the first the default (as `green-nlp parse|tag|classify --format`)
TASK_FORMATS = {"parse": ("json", "conllu"), "tag": ("json", "conll"), "classify": ("json",)}
# output format -> the result method that writes it
FORMAT_METHODS = {"json": "to_json", "conllu": "to_conllu", "conll": "to_conll"}


@dataclass
class ServedModel:
    """One loaded runtime model and what `GET /v1/models` says about it."""

    name: str
    family: str
    runtime: Any
    folder: Path
    meta: dict[str, Any]

    @property
    def tasks(self) -> list[str]:
        return [task for task, method in TASK_METHODS.items() if hasattr(self.runtime, method)]

    def predictor(self, task: str) -> Callable[[list[str]], list[Any]]:
        """texts -> one result per text, all in one runtime call (the parser's cut by sentence length)."""
        if task == "parse" and hasattr(self.runtime, "segmenter") and hasattr(self.runtime, "parse_sentences"):
            from green_nlp.serve.parser_batching import parse_texts

            return lambda texts: parse_texts(self.runtime, texts)
        method = getattr(self.runtime, TASK_METHODS[task])
        return lambda texts: list(method(texts, batch_size=max(1, len(texts))))

    def describe(self) -> dict[str, Any]:
        card = self.meta.get("card") or {}
        return {
            "name": self.name,
            "family": self.family,
            "tasks": self.tasks,
            "title": card.get("title"),
            "license": card.get("license"),
            "metrics": card.get("metrics") or {},
            "data": card.get("data") or [],
            "labels": _labels(self.meta),
        }


def _labels(meta: dict[str, Any]) -> Any:
    """The classifier's label list, or each label namespace's size for the other families."""
    labels = meta.get("labels")
    if isinstance(labels, dict):
        return {namespace: len(values) for namespace, values in labels.items() if isinstance(values, list)}
    return labels


def served_name(name_or_folder: str) -> str:
    """The URL name of a model: its shipped name, or the last part of its folder path."""
    return Path(name_or_folder.rstrip("/\\")).name or name_or_folder


def load_models(
    names: Sequence[str],
    precision: str = "auto",
    threads: Optional[int] = 1,
    split_sentences: bool = False,
    engine: str = "onnxruntime",
) -> dict[str, ServedModel]:
    """name -> loaded model, for shipped names and exported folders; two models may not share a name.
    `split_sentences`: classifiers answer with the mean of each text's sentences (`green-nlp classify
    --split-sentences`); `engine`: the classifiers' (`ClassifierRuntime.set_engine`; a server pays
    the numba engine's longer start once)."""
    from green_nlp.runtime import load, read_meta, resolve_model

    models: dict[str, ServedModel] = {}
    for given in names:
        folder = resolve_model(given)
        name = served_name(given)
        if name in models:
            raise ValueError(f"two models would both be served as {name!r}; rename one folder")
        meta = read_meta(folder)
        runtime = load(folder, precision=precision, threads=threads)
        if hasattr(runtime, "length_advice"):  # the server parses each text's sentences; its limit is the folder's
            runtime.length_advice = "send it as shorter sentences"
        if getattr(runtime, "family", None) == "classifier":
            runtime.split_sentences = split_sentences
            runtime.set_engine(engine)
        models[name] = ServedModel(name, str(meta.get("family")), runtime, folder, meta)
    return models


def warm_up(model: ServedModel) -> list[str]:
    """One call per task, so the first user does not pay for spaCy's import and onnxruntime's first
    run; returns the tasks' refusals (a gold-UPOS parser cannot take raw text) for the log.
    A model no text can go through raises: its folder's ModelFolderError (a tokenizer language spaCy
    cannot load), or InputKindError for a parser trained with gold UPOS input, which reads tokens and
    tags this API does not take. The server then does not start, rather than answer every request 422."""
    problems = []
    for task in model.tasks:
        try:
            model.predictor(task)(["Warm up the model."])
        except ModelFolderError:
            raise
        except InputKindError as error:
            raise InputKindError(f"{model.name} cannot be served (the API takes raw text only): {error}") from None
        except ValueError as error:
            problems.append(f"{model.name}/{task}: {error}")
    return problems
