"""`python -m green_nlp ...`: the same as the `green-nlp` command (spaCy's and pip's users expect both)."""

from green_nlp.cli import main

if __name__ == "__main__":
    main()
