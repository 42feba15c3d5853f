"""Export trained AllenNLP archives to ONNX folders for the torch-free runtime (`green_nlp.runtime`).

`allennlp green-export ARCHIVE OUTPUT_DIR [--card FILE]` or `export_archive(...)`.

`export_archive` and `read_model_card` are imported on first use: the archive exporters need torch
and allennlp, but the folder commands beside them (`python -m green_nlp.export.ngram_index FOLDER`,
which the runtime's own error messages name) must also run where only the runtime is installed.
"""

from typing import Any

__all__ = ["export_archive", "read_model_card"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from green_nlp.export import common

        return getattr(common, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
