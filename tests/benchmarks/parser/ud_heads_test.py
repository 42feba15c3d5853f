"""`benchmarks.parser.ud_heads.export_pair`: the folder without the extra heads loads, also when the
folder with them has its lemma head in a graph of its own (a parser with a lemma dictionary)."""

from benchmarks.parser.ud_heads import export_pair
from green_nlp.export.lemma_lexicon import add_to_archive
from green_nlp.runtime import load
from tests.export.lemma_lexicon_test import _planted
from tests.export.parser_ud_heads_test import archive  # noqa: F401 (module fixture)


def test_the_pair_of_a_parser_with_a_lemma_dictionary_both_load(archive, tmp_path):  # noqa: F811
    lexicon_archive = tmp_path / "model.tar.gz"
    add_to_archive(archive, _planted(), lexicon_archive)
    with_heads, without = export_pair(lexicon_archive, tmp_path / "work")
    assert load(with_heads, threads=1)._lemma_head is not None
    plain = load(without, threads=1)
    assert plain._lemma_head is None and not plain._extra
    assert plain.parse("the small cat sees a green dog .").sentences[0].lemmas is None
