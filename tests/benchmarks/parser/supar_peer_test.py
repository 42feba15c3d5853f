"""benchmarks.parser.peers.supar_peer finds SuPar on the import path only (no path edits of its own),
and says how to install and reach it when it is not there."""

import importlib.util

import pytest

from benchmarks.parser.peers import supar_peer


def test_a_missing_supar_names_the_install_script_and_the_path_to_set():
    if importlib.util.find_spec("supar") is not None:
        pytest.skip("supar is importable here")
    with pytest.raises(SystemExit, match=r"setup_supar\.sh.*PYTHONPATH=runs/peers/site"):
        supar_peer.require_supar()
