import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.data.folds import check_fold_settings, sentence_fold
from green_nlp.dataset_readers import ConlluDependenciesReader, read_conllu
from tests.conftest import FIXTURES, require_data

TRAIN = FIXTURES / "ud" / "synthetic-train.conllu"


def test_fold_depends_on_the_words_alone_and_is_in_range():
    words = ["Le", "chat", "dort", "."]
    assert sentence_fold(words, 5) == sentence_fold(list(words), 5)
    folds = {sentence_fold([f"w{i}", "x"], 4) for i in range(200)}
    assert folds == {0, 1, 2, 3}
    # the separator keeps word boundaries: these two must not be forced into one fold by joining
    differing = [sentence_fold(["ab", f"c{i}"], 7) != sentence_fold([f"abc{i}"], 7) for i in range(50)]
    assert any(differing)
    assert sentence_fold(words, 1) == 0


def test_folds_are_roughly_even_on_real_sized_input():
    counts = [0] * 5
    for i in range(5000):
        counts[sentence_fold(["sentence", str(i)], 5)] += 1
    assert min(counts) > 900 and max(counts) < 1100


@pytest.mark.parametrize(
    "folds, leave_out, message",
    [(5, None, "together"), (None, 1, "together"), (1, 0, "at least 2"), (5, 5, r"0\.\.4"), (3, -1, r"0\.\.2")],
)
def test_bad_fold_settings_are_rejected(folds, leave_out, message):
    with pytest.raises(ConfigurationError, match=message):
        check_fold_settings(folds, leave_out)
    with pytest.raises(ConfigurationError, match=message):
        ConlluDependenciesReader(cross_fit_folds=folds, leave_out_fold=leave_out)


def test_fold_readers_leave_out_each_sentence_exactly_once():
    every = [tuple(s.words) for s in read_conllu(TRAIN)]
    left_out = []
    for fold in range(3):
        reader = ConlluDependenciesReader(cross_fit_folds=3, leave_out_fold=fold)
        kept = [tuple(m["words"]) for m in (i["metadata"].metadata for i in reader.read(TRAIN))]
        assert all(sentence_fold(words, 3) != fold for words in kept)
        left_out += sorted(set(every) - set(kept))
        assert len(kept) + sum(sentence_fold(w, 3) == fold for w in every) == len(every)
    assert sorted(left_out) == sorted(set(every))


def test_real_wolof_training_set_splits_into_five_even_folds_each_left_out_once():
    path = require_data("ud", "UD_Wolof-WTB", "wo_wtb-ud-train.conllu")
    every = [tuple(s.words) for s in read_conllu(path)]
    read_per_fold = [
        len(list(ConlluDependenciesReader(cross_fit_folds=5, leave_out_fold=fold).read(path))) for fold in range(5)
    ]
    left_out = [len(every) - kept for kept in read_per_fold]
    assert sum(left_out) == len(every)  # every sentence is in exactly one fold
    assert min(left_out) > 0.15 * len(every) and max(left_out) < 0.25 * len(every)
