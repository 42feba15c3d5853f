from allennlp.models.archival import load_archive
from torch import nn

from green_nlp.nn.quantization import quantize_for_cpu
from tests.conftest import FIXTURES


def test_quantized_parser_keeps_its_predictions():
    archive = load_archive(str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"))
    model = archive.model.eval()
    quantized = quantize_for_cpu(model)
    assert not any(type(m) is nn.Linear for m in quantized.modules())  # all replaced by int8 versions
    assert any(type(m) is nn.Linear for m in model.modules())  # the original is untouched
    instances = list(archive.validation_dataset_reader.read(FIXTURES / "ud" / "synthetic-dev.conllu"))
    for instance in instances:
        archive.validation_dataset_reader.apply_token_indexers(instance)
    original = model.forward_on_instances(instances)
    compressed = quantized.forward_on_instances(instances)
    same = total = 0
    for a, b in zip(original, compressed):
        same += sum(x == y for x, y in zip(a["predicted_heads"], b["predicted_heads"]))
        total += len(a["predicted_heads"])
    assert same / total > 0.95
