"""benchmarks.parser.raw_paragraphs: paragraphs rebuilt from a treebank as its text had them, and
the three readings scored with sentence boundaries, on a tiny treebank with the shipped parser."""

from pathlib import Path

import conllu
import pytest

from benchmarks.parser.raw_paragraphs import measure, paragraphs, space_after

# two documents; the first has two paragraphs, the first of them two sentences, the second of which
# follows the first without a space (`came.It`); the last sentence ends in a multiword token
TREEBANK = """# newdoc id = d1
# newpar id = d1-p1
# sent_id = 1
# text = The dog came.
1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_
2\tdog\tdog\tNOUN\tNN\t_\t3\tnsubj\t_\t_
3\tcame\tcome\tVERB\tVBD\t_\t0\troot\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\tSpaceAfter=No

# sent_id = 2
# text = It sat down.
1\tIt\tit\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2\tsat\tsit\tVERB\tVBD\t_\t0\troot\t_\t_
3\tdown\tdown\tADV\tRB\t_\t2\tadvmod\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_

# newpar id = d1-p2
# sent_id = 3
# text = Birds sing.
1\tBirds\tbird\tNOUN\tNNS\t_\t2\tnsubj\t_\t_
2\tsing\tsing\tVERB\tVBP\t_\t0\troot\t_\tSpaceAfter=No
3\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_

# newdoc id = d2
# sent_id = 4
# text = We can't
1\tWe\twe\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2-3\tcan't\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No
2\tca\tcan\tAUX\tMD\t_\t0\troot\t_\t_
3\tn't\tnot\tPART\tRB\t_\t2\tadvmod\t_\t_

"""


@pytest.fixture()
def gold(tmp_path: Path) -> Path:
    path = tmp_path / "gold.conllu"
    path.write_text(TREEBANK, encoding="utf-8")
    return path


def test_paragraphs_join_their_sentences_as_the_text_had_them(gold: Path) -> None:
    sentences = conllu.parse(gold.read_text(encoding="utf-8"))
    assert [space_after(sentence) for sentence in sentences] == [False, True, True, False]
    found = paragraphs(sentences)
    assert [paragraph.text for paragraph in found] == ["The dog came.It sat down.", "Birds sing.", "We can't"]
    assert [paragraph.sentences for paragraph in found] == [2, 1, 1]


def test_the_three_readings_are_scored_with_their_sentence_boundaries(gold: Path, tmp_path: Path) -> None:
    from green_nlp.runtime import load

    rows = measure(load("en-ewt-parser", threads=1), gold, "tiny", tmp_path)
    given, split, unsplit = (rows[f"tiny: {name}"] for name in ("one sentence a line", *_paragraph_readings()))
    assert given["sentences_f1"] == 100.0 and given["lines"] == 4
    assert split["lines"] == unsplit["lines"] == 3 and split["gold_sentences"] == 4
    # read as one sentence, the two-sentence paragraph is one predicted sentence against two gold ones
    assert unsplit["sentences_f1"] == pytest.approx(100 * 2 * (2 / 3) * (2 / 4) / (2 / 3 + 2 / 4))
    assert split["sentences_f1"] > unsplit["sentences_f1"]
    assert all(row["words"] == 14 for row in (given, split, unsplit))  # the gold words, `ca` and `n't` two
    assert unsplit["flagged_lines"] == 0  # `came.It` has no space after the mark: not counted by the CLI either
    assert given["flagged_lines"] == split["flagged_lines"] == 0


def _paragraph_readings() -> tuple[str, str]:
    return "one paragraph a line, split", "one paragraph a line, unsplit"
