"""The time budget's arithmetic: stage rows and their shares, and the FLOP counts
read from the shipped graphs (the benchmark itself needs the data sets and minutes)."""

import subprocess
import sys

import pytest

from benchmarks.runtime.time_budget import (
    CLASSIFIER,
    PARSER,
    SPACY_START_CODE,
    conllu_words,
    dan_weight_flops,
    parse_budget,
    parse_floor,
    parser_weight_flops,
    peer_ratios,
    stage_rows,
    weight_flops,
)
from tests.conftest import REPO_ROOT


def test_stage_rows_give_shares_other_and_the_end_to_end_rate():
    budget = {"seconds": {"read": 0.1, "model": 0.5, "end-to-end": 1.0}}
    rows = stage_rows("job", budget, "text", 1000, {"model": 2.0})
    assert rows["job read"]["us_per_text"] == pytest.approx(100.0)
    assert rows["job model"]["share"] == pytest.approx(0.5) and rows["job model"]["limit_us_per_text"] == 2.0
    assert rows["job other"]["us_per_text"] == pytest.approx(400.0)  # 1.0 - 0.1 - 0.5 seconds
    end = rows["job end-to-end"]
    assert end["share"] == pytest.approx(1.0) and end["texts_per_cpu_s"] == pytest.approx(1000.0)
    assert end["cpu_s_per_million"] == pytest.approx(1000.0)


def test_the_parse_floor_is_the_model_at_its_limit_plus_the_other_stages():
    budget = {"seconds": {"segment": 0.002, "model": 0.006, "end-to-end": 0.010}}  # 1,000 tokens: 10 µs a token
    rows = stage_rows("parse", budget, "token", 1000, {"model": 3.0})
    floor = parse_floor(rows, spacy_us_per_token=16.0)
    assert floor["needed_us_per_token"] == pytest.approx(8.0)  # 2.0x spaCy's 16 µs
    assert floor["other_stages_us_per_token"] == pytest.approx(4.0)  # 10 - 6 for the model
    assert floor["floor_us_per_token"] == pytest.approx(7.0)  # 3 at the limit + 4
    assert floor["best_ratio_at_floor"] == pytest.approx(16.0 / 7.0)
    assert parse_floor(rows, 12.0)["best_ratio_at_floor"] < 2.0  # a faster peer: the aim is past the floor


def test_flops_of_the_shipped_graphs():
    # DAN: 8 x 200 and 200 x 2 layers (the 200,002 x 8 table is a lookup, not counted)
    assert dan_weight_flops(CLASSIFIER / "model.int8.onnx") == 2 * (8 * 200 + 200 * 2)
    no_chars, with_chars = parser_weight_flops(PARSER, 0.0), parser_weight_flops(PARSER, 5.0)
    assert 2.5e6 < no_chars < 4e6  # three BiLSTMs and the MLPs
    assert with_chars - no_chars == pytest.approx(5.0 * 2 * 100 * 32 * 3)  # the character CNN, per character
    head = weight_flops(PARSER / "lemma_head.int8.onnx", 5.0)
    assert head == 2 * 284 * 844  # the lemma head's scripts from each word's state, in a graph of its own
    assert weight_flops(PARSER / "model.int8.onnx", 5.0) + head == no_chars  # the CNN: in the encoder's graph


def test_peer_ratios_divide_green_nlps_rate_by_the_peers():
    rows = {
        "classify b1 end-to-end": {"texts_per_cpu_s": 50.0},
        "classify b32 end-to-end": {"texts_per_cpu_s": 300.0},
        "fastText wordNgrams 2 b1 (peer)": {"texts_per_cpu_s": 100.0},
        "fastText wordNgrams 2 b32 (peer)": {"texts_per_cpu_s": 200.0},
        "parse end-to-end": {"tokens_per_cpu_s": 3000.0},
    }
    ratios = peer_ratios(rows, {"b1": {}, "b32": {}}, {"tokens": 1000, "seconds": 0.5})
    assert ratios == {
        "classify b1 vs fastText wordNgrams 2": 0.5,
        "classify b32 vs fastText wordNgrams 2": 1.5,
        "parse vs spaCy en_core_web_sm": 1.5,
    }
    assert peer_ratios(rows, {}, {}) == {}
    rows["fastText wordNgrams 2 b32, read + predict + write JSON lines (peer)"] = {"texts_per_cpu_s": 600.0}
    ratios = peer_ratios(rows, {"b32": {}, "b32 job": {}}, {})
    assert ratios == {
        "classify b32 vs fastText wordNgrams 2": 1.5,
        "classify b32 vs fastText wordNgrams 2, same job": 0.5,
    }


def test_the_fasttext_peer_doing_the_whole_job_writes_a_json_line_per_text(tmp_path):
    import json

    from benchmarks.runtime.time_budget import fasttext_json_lines

    class Model:  # fastText's predict(k=-1): labels and probabilities, best first, per text
        def predict(self, texts, k):
            one = (("__label__1", "__label__0"), [0.75, 0.25])
            return one if isinstance(texts, str) else ([one[0]] * len(texts), [one[1]] * len(texts))

    path = tmp_path / "in.txt"
    path.write_text("good\nbad\nfine\n", encoding="utf-8")
    for batch_size in (1, 2):
        lines = fasttext_json_lines(Model(), path, batch_size).splitlines()
        assert [json.loads(line) for line in lines] == [
            {"line": n, "label": "1", "probs": {"1": 0.75, "0": 0.25}} for n in (1, 2, 3)
        ]


def test_whole_process_cpu_seconds_count_the_child_and_conllu_words_skip_ranges(tmp_path):
    import sys

    from benchmarks.runtime.time_budget import child_cpu_seconds, conllu_words

    busy = child_cpu_seconds([sys.executable, "-c", "sum(i * i for i in range(3_000_000))"])
    idle = child_cpu_seconds([sys.executable, "-c", "pass"])
    assert busy > idle > 0
    conllu = tmp_path / "x.conllu"
    conllu.write_text("# text = don't go\n1-2\tdon't\n1\tdo\n2\tn't\n3\tgo\n3.1\tx\n\n1\tok\n\n", encoding="utf-8")
    assert conllu_words(conllu) == 4


def test_spacys_start_alone_builds_the_blank_tokenizer_with_its_command_line_deferred(tmp_path):
    code = SPACY_START_CODE + "; import sys; print('spacy.cli.download' in sys.modules, 'typer' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["ready", "False", "False"]


def test_peer_ratios_cover_the_numba_engine_rows_where_measured():
    rows = {
        "classify b32 end-to-end": {"texts_per_cpu_s": 300.0},
        "classify numba engine b32 end-to-end": {"texts_per_cpu_s": 900.0},
        "fastText wordNgrams 2 b32 (peer)": {"texts_per_cpu_s": 600.0},
    }
    assert peer_ratios(rows, {"b32": {}}, {}) == {
        "classify b32 vs fastText wordNgrams 2": 0.5,
        "classify numba engine b32 vs fastText wordNgrams 2": 1.5,
    }


def test_numba_break_even_is_where_its_longer_start_is_paid_back():
    from benchmarks.runtime.classify_processes import numba_break_even

    found = {
        "seconds": {"green-nlp classify": 2.0, "green-nlp classify --engine numba": 2.5},
        "fastest_start_seconds": {"green-nlp classify": 0.5, "green-nlp classify --engine numba": 1.5},
        "us_per_text_after_start": {"green-nlp classify": 80.0, "green-nlp classify --engine numba": 40.0},
    }
    assert numba_break_even(found) == pytest.approx(1 + 1.0 / 40e-6)  # 1 s more start, 40 us less a text
    found["us_per_text_after_start"]["green-nlp classify --engine numba"] = 90.0
    assert numba_break_even(found) is None  # never pays back
    assert numba_break_even({"seconds": {"green-nlp classify": 2.0}}) is None  # not run


def test_the_fasttext_script_does_the_same_job_as_the_in_process_peer(tmp_path):
    """The whole-process peer writes the bytes `fasttext_json_lines` writes at the CLI's batch size
    (a stand-in `fasttext` module answers as fastText's predict(k=-1) does)."""
    from benchmarks.runtime.classify_processes import CLI_BATCH, FASTTEXT_SCRIPT
    from benchmarks.runtime.time_budget import fasttext_json_lines

    stand_in = (
        "class _Model:\n"
        "    def predict(self, texts, k):\n"
        "        rows = [(('__label__1', '__label__0'), [0.75, 0.25]) if len(t) % 2 else "
        "(('__label__0', '__label__1'), [0.625, 0.375]) for t in texts]\n"
        "        return [r[0] for r in rows], [r[1] for r in rows]\n"
        "def load_model(path):\n"
        "    return _Model()\n"
    )
    (tmp_path / "fasttext.py").write_text(stand_in, encoding="utf-8")
    namespace: dict = {}
    exec(stand_in, namespace)
    lines = [f"text {'x' * n} é" for n in range(CLI_BATCH * 2 + 3)]
    source, script, out = tmp_path / "in.txt", tmp_path / "script.py", tmp_path / "out.jsonl"
    source.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    script.write_text(FASTTEXT_SCRIPT, encoding="utf-8")
    env = {"PATH": "", "PYTHONPATH": str(tmp_path)}
    subprocess.run([sys.executable, str(script), "model.bin", str(source), str(out)], check=True, env=env, timeout=120)
    assert out.read_text(encoding="utf-8") == fasttext_json_lines(namespace["load_model"](""), source, CLI_BATCH)


def test_classify_commands_run_the_numba_engine_only_where_the_venv_has_it(tmp_path):
    from benchmarks.runtime.classify_processes import can_import, classify_commands

    assert can_import(sys.executable, "json") and not can_import(sys.executable, "no_such_module_for_green_nlp")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"  # this interpreter, its own venv kept (a symlink would lose it)
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    commands = classify_commands(venv, tmp_path / "in.txt", tmp_path, None)
    has_numba = can_import(sys.executable, "numba")
    assert set(commands) == {"green-nlp classify"} | ({"green-nlp classify --engine numba"} if has_numba else set())
    with_peer = classify_commands(venv, tmp_path / "in.txt", tmp_path, tmp_path / "model.bin")
    assert with_peer["fastText script"][0] == sys.executable and (tmp_path / "fasttext_classify.py").exists()


def test_the_parse_stages_tokenize_as_the_command_line_does(tmp_path):
    """The in-process stages split words with the folder's tokenizer rules, as `green-nlp parse`
    does: "e-mail" and "anti-American" stay one word, so the tokens a second are the command's."""
    path, out = tmp_path / "lines.txt", tmp_path / "parsed.conllu"
    path.write_text("They chanted anti-American slogans in an e-mail.\nIt's fine, isn't it?\n", encoding="utf-8")
    budget = parse_budget(path, repeats=1)
    command = [sys.executable, "-m", "green_nlp.cli", "parse", str(PARSER), str(path), "-o", str(out), "--no-progress"]
    subprocess.run(command, check=True, capture_output=True, cwd=REPO_ROOT, timeout=600)
    assert budget["tokens"] == conllu_words(out) == 16
