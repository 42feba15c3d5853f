"""The shipped parser scored two ways on UD English-EWT test: green_nlp's strict UAS/LAS (full
relations with subtypes, every word) and the official CoNLL 2018 shared-task evaluation (UAS, LAS
on universal relations, CLAS, MLAS), so its figures can be set beside published ones; and from raw
text, as users run it (each gold sentence's text through spaCy's tokenizer), where the shared
task's evaluation aligns the predicted words with the gold ones and scores tokenization too.

    python -m benchmarks.parser.shipped_conll18 [--model en-ewt-parser] [--precision auto]

The runtime parses the gold words (gold tokenization, as the model card's figures); its heads,
relations and UPOS replace those columns of the gold file, and so do its LEMMA, XPOS and FEATS
where the model has those heads; every other column is carried through, as `allennlp predict
--use-dataset-reader` writes a CoNLL-U file. A model without the heads keeps the gold LEMMA, XPOS
and FEATS there, so its MLAS scores the predicted UPOS and tree with the gold features, and from raw
text (where it writes `_`) it gets no MLAS, LEMMA or UFeats. Results:
benchmarks/results/shipped_parser_conll18.{json,md}.
"""

import argparse
import tempfile
from pathlib import Path
from typing import Any

import conllu

from benchmarks.common import RESULTS, hardware_description, write_results
from green_nlp.evaluation.conll18 import score_conllu
from green_nlp.settings import data_path


def predicted_file(model: Any, gold: list[conllu.TokenList], out: Path) -> dict[str, float]:
    """Write the runtime's parse of every gold sentence into `out`; return the strict scores."""
    words = heads = arcs = 0
    inputs = [([token["form"] for token in sentence if isinstance(token["id"], int)], None) for sentence in gold]
    with open(out, "w", encoding="utf-8") as handle:
        for sentence, parsed in zip(gold, model.parse_sentences(inputs, batch_size=32)):
            tokens = [token for token in sentence if isinstance(token["id"], int)]
            for token, head, relation, upos in zip(
                tokens, parsed.heads, parsed.deprels, parsed.upos or [None] * len(tokens)
            ):
                words += 1
                heads += head == token["head"]
                arcs += head == token["head"] and relation == token["deprel"]
                token["head"], token["deprel"] = head, relation
                token["deps"] = None  # enhanced graph: not predicted
                if upos is not None:
                    token["upos"] = upos
            for column, values in (("lemma", parsed.lemmas), ("xpos", parsed.xpos), ("feats", parsed.feats)):
                if values is not None:  # the model's heads, in place of the gold column
                    for token, value in zip(tokens, values):
                        token[column] = value
            handle.write(sentence.serialize())
    return {"strict_uas": 100 * heads / words, "strict_las": 100 * arcs / words, "words": words}


def raw_text_file(model: Any, gold: list[conllu.TokenList], out: Path) -> None:
    """Write the runtime's parse of every gold sentence's text (spaCy tokens, its sentence splits)."""
    with open(out, "w", encoding="utf-8") as handle:
        for sentence in gold:
            handle.write(model.parse(sentence.metadata["text"]).to_conllu())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="en-ewt-parser", help="a shipped parser's name or an exported folder")
    parser.add_argument("--precision", default="auto", choices=("auto", "fp32", "int8"))
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    from green_nlp.runtime import load

    gold_path = data_path("ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    if not gold_path.is_file():
        raise SystemExit(f"UD English-EWT test not found at {gold_path}: set GREEN_NLP_DATA")
    with open(gold_path, encoding="utf-8") as handle:
        gold = list(conllu.parse_incr(handle))
    model = load(args.model, precision=args.precision, threads=1)
    with tempfile.TemporaryDirectory() as folder:
        predicted = Path(folder) / "predicted.conllu"
        strict = predicted_file(model, gold, predicted)
        official = score_conllu(gold_path, predicted)
        raw_path = Path(folder) / "raw_text.conllu"
        raw_text_file(model, gold, raw_path)
        raw = score_conllu(gold_path, raw_path)
    row = {
        "strict_uas": strict["strict_uas"],
        "strict_las": strict["strict_las"],
        "tokens_f1": official.tokens,
        "words_f1": official.words,
        "conll18_uas": official.uas,
        "conll18_las": official.las,
        "clas": official.clas,
        "mlas": official.mlas,
        "upos_f1": official.upos,
        "words": strict["words"],
    }
    heads = bool((model.meta.get("outputs") or {}).get("lemma_rules"))
    if heads:  # else those columns hold the gold file's values: nothing of the model's to score
        row.update(lemmas=official.lemmas, ufeats=official.ufeats, xpos=official.xpos)
    raw_row = {
        "tokens_f1": raw.tokens,
        "words_f1": raw.words,
        "conll18_uas": raw.uas,
        "conll18_las": raw.las,
        "clas": raw.clas,
        "upos_f1": raw.upos,
        "words": raw.gold_words,
    }
    if heads:  # a model without the heads writes `_`: no MLAS, LEMMA or UFeats to score from raw text
        raw_row.update(mlas=raw.mlas, lemmas=raw.lemmas, ufeats=raw.ufeats, xpos=raw.xpos)
    from green_nlp.runtime import resolve_model
    from green_nlp.runtime.model_folder import model_file

    graph = model_file(resolve_model(args.model), model.meta, args.precision).name
    name = f"{args.model} ({graph}), gold tokens"
    raw_name = f"{args.model} ({graph}), raw text"
    results = {
        "machine": hardware_description(),
        "model": args.model,
        "graph": graph,
        "test_file": "UD English-EWT test",
        "rows": {name: row, raw_name: raw_row},
    }
    note = (
        f"UD English-EWT test, {strict['words']:,} words. gold tokens: the gold words given to the parser; "
        "raw text: each gold sentence's text given as a line (spaCy tokenizes it and may split it). "
        "strict: green_nlp's own "
        "scores (every word, punctuation included, full relations with subtypes). conll18: the CoNLL 2018 "
        "shared task's evaluation (relations without subtypes); CLAS: content words only; MLAS: CLAS that "
        "also needs UPOS, universal features and function-word children right"
        + (
            "; LEMMA, UFeats, XPOS and MLAS score the model's own heads. "
            if heads
            else ", with the gold FEATS carried through (the model predicts no features; not scored from raw text). "
        )
        + "F1 scores: from raw text "
        "a word counts when its span matches a gold word's (tokens_f1, words_f1: how well the "
        'tokenization matched; multiword tokens such as "don\'t" are two gold words). Produced by '
        "`python -m benchmarks.parser.shipped_conll18`."
    )
    write_results(
        args.output_dir,
        "shipped_parser_conll18",
        results,
        {name: row, raw_name: raw_row},
        [
            "strict_uas",
            "strict_las",
            "tokens_f1",
            "words_f1",
            "upos_f1",
            "xpos",
            "ufeats",
            "lemmas",
            "conll18_uas",
            "conll18_las",
            "clas",
            "mlas",
            "words",
        ],
        note,
    )


if __name__ == "__main__":
    main()
