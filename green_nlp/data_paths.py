"""The old import path of the data settings, now in `green_nlp.settings`.

Kept because the benchmark and experiment scripts still import `data_dir` / `data_path` from here;
new code imports `green_nlp.settings`.
"""

from green_nlp.settings import DATA_ENV_VAR, data_dir, data_path

__all__ = ["DATA_ENV_VAR", "data_dir", "data_path"]
