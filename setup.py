from setuptools import find_packages, setup

setup(
    name="green_nlp",
    version="0.1.0",
    description="AllenNLP plugin: cheaper NLP models (distilled parsers, pruned LMs, sparse DANs)",
    packages=find_packages(include=["green_nlp", "green_nlp.*"]),
    python_requires=">=3.11",
    # The full, pinned stack is installed by scripts/setup_env.sh; allennlp 2.10.1 must be
    # installed with --no-deps on Python 3.11, so it is not declared here.
    install_requires=["conllu>=6", "spacy>=3.8", "scikit-learn>=1.5", "torch>=2.6"],
    # spaCy finds these pipeline components by name without `import green_nlp`.
    entry_points={
        "spacy_factories": [
            "green_nlp_parser = green_nlp.integrations.spacy_components:make_parser",
            "green_nlp_ner = green_nlp.integrations.spacy_components:make_ner",
            "green_nlp_classifier = green_nlp.integrations.spacy_components:make_classifier",
        ],
    },
)
