"""Write fixtures/ud/synthetic-tiny-ud-columns.conllu: synthetic-tiny.conllu with LEMMA and FEATS
columns that differ from the form, so the parser's LEMMA / FEATS / XPOS heads have something to
learn in tests (verbs in -s lemmatize to their stem, nouns and verbs carry UFeats).

    python scripts/make_ud_columns_fixture.py
"""

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ud"
FEATS = {"VERB": "Number=Sing|Person=3|Tense=Pres|VerbForm=Fin", "NOUN": "Number=Sing", "DET": "PronType=Art"}


def convert(line: str) -> str:
    columns = line.split("\t")
    if len(columns) != 10:
        return line
    form, upos = columns[1], columns[3]
    if upos == "VERB" and form.endswith("s"):
        columns[2] = form[:-1]
    columns[5] = FEATS.get(upos, "_")
    return "\t".join(columns)


def main() -> None:
    source = (FIXTURES / "synthetic-tiny.conllu").read_text(encoding="utf-8")
    target = FIXTURES / "synthetic-tiny-ud-columns.conllu"
    target.write_text("\n".join(convert(line) for line in source.split("\n")), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
