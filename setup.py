"""green_nlp: `pip install .` gives the light runtime; `scripts/setup_env.sh` gives the training stack.

The runtime (`green_nlp.load`, `green-nlp parse|tag|classify`, spaCy's entry points) needs only what
`install_requires` lists. Training and the AllenNLP components need torch and allennlp 2.10.1,
whose declared pins (torch<1.13, spacy<3.4, ...) cannot install on Python 3.11: `scripts/setup_env.sh`
installs a stack on which it runs (allennlp with --no-deps), so it is not declared here; the
`allennlp` extra lists the rest of what green_nlp's own AllenNLP code imports.
"""
from setuptools import find_packages, setup

RUNTIME = [
    "numpy>=1.24",
    "onnxruntime>=1.17",
    "protobuf>=4.22",  # onnxruntime's own dependency; reads graph weights without onnx (runtime/onnx_reading.py)
    "spacy>=3.8",  # its tokenizer splits raw text as the AllenNLP predictors did
    "ufal.chu-liu-edmonds>=1.0",  # exact maximum spanning trees for the parser
    "conllu>=6",
    "tqdm>=4",
    "starlette>=0.37",  # `green-nlp serve`: a small ASGI toolkit (docs/serving.md)
    "uvicorn>=0.30",  # its server; it uses the two below by itself: HTTP parsed in C and a faster
    "httptools>=0.6",  # event loop (`green-nlp serve --http h11 --loop asyncio` runs without them)
    "uvloop>=0.19; sys_platform != 'win32'",
]

setup(
    name="green_nlp",
    version="0.2.0",
    description="Cheaper NLP models: distilled parsers, pruned LD-Net taggers, sparse n-gram DANs; "
                "an AllenNLP plugin and a light ONNX runtime",
    packages=find_packages(include=["green_nlp", "green_nlp.*"])
    + ["green_nlp.training_configs", "green_nlp.pretrained"],
    # The configs and the shipped models live at the top of the repository (where `allennlp train
    # training_configs/...` finds them); an installed package carries them as green_nlp/training_configs
    # (`green-nlp configs`) and green_nlp/pretrained (`green_nlp.load(name)`).
    package_dir={"green_nlp.training_configs": "training_configs", "green_nlp.pretrained": "pretrained"},
    package_data={
        # the student sizes' JSON too
        "green_nlp.training_configs": ["*.jsonnet", "*.libsonnet", "**/*.jsonnet", "**/*.libsonnet", "**/*.json"],
        "green_nlp.pretrained": ["*/*.json", "*/*.onnx", "*/*.md", "*/*.txt", "*/*.npz"],
        "green_nlp.serve": ["*.html"],
    },
    python_requires=">=3.11",
    install_requires=RUNTIME,
    extras_require={
        # With allennlp==2.10.1 and allennlp-models==2.10.1 installed --no-deps (scripts/setup_env.sh).
        "allennlp": ["torch>=2.6", "scikit-learn>=1.5", "onnx>=1.16", "jsonnet>=0.20"],
        # `--ray` for green-predict / green-label-teacher / green-nlp parse|tag|classify (docs/distributed.md)
        "ray": ["ray[data]>=2.40"],
        # `--engine numba` for the DAN (green_nlp/runtime/dan_numba.py): compiled from wheels, no C build
        "numba": ["numba>=0.60"],
        # the fastText peer of `python -m benchmarks.runtime.dan --fasttext` (skipped without it)
        "benchmarks": ["fasttext-numpy2>=0.10"],
    },
    entry_points={
        "console_scripts": ["green-nlp = green_nlp.cli:main"],
        # spaCy finds these pipeline components by name without `import green_nlp`; the factory module
        # is light, the model code is imported only when a component is added to a pipeline.
        "spacy_factories": [
            "green_nlp_parser = green_nlp.integrations.spacy_factories:make_parser",
            "green_nlp_ner = green_nlp.integrations.spacy_factories:make_ner",
            "green_nlp_classifier = green_nlp.integrations.spacy_factories:make_classifier",
        ],
    },
)
