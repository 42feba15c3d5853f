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
)
