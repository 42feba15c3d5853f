"""Export trained AllenNLP archives to ONNX folders for the torch-free runtime (`green_nlp.runtime`).

`allennlp green-export ARCHIVE OUTPUT_DIR [--card FILE]` or `export_archive(...)`.
"""

from green_nlp.export.common import export_archive, read_model_card

__all__ = ["export_archive", "read_model_card"]
