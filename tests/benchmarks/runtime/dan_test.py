"""benchmarks.runtime.dan: what it reads (the timing itself is not asserted: speed is a ratio the
script reports)."""

import pytest

from benchmarks.runtime import dan as dan_benchmark


def test_missing_sst2_data_is_named(tmp_path):
    with pytest.raises(SystemExit, match="SST-2 data not found: .*dev.tsv"):
        dan_benchmark.sst2_examples(tmp_path)
