"""The torch-free ONNX runtime against AllenNLP, one module per model family: parser, DAN
classifier, LD-Net tagger."""
