"""benchmarks.dan.distillation reads each result row from a named run and config: the GPU-teacher setups
(`sst2`, `imdb`) and the CPU-sized ones (`sst2_cpu`, `imdb_cpu`) must point at different runs,
configs that exist, and the same evaluation data."""

from allennlp.common import Params

from benchmarks.dan import distillation as dan
from tests.conftest import REPO_ROOT

CORE = ("teacher", "dan_scratch", "dan_kd", "dan_kd_ft")


def _read(reference: str) -> dict:
    """The config a row names (`[VAR=value ...] path`), read as `allennlp train` would with those variables."""
    *variables, path = reference.split()
    return Params.from_file(str(REPO_ROOT / path), ext_vars=dict(v.split("=", 1) for v in variables)).as_dict()


def test_every_core_row_names_a_config_that_exists():
    for dataset in dan.DATASETS:
        runs = dan.model_runs(dataset)
        for model in CORE:
            config = _read(runs[model].config)
            assert config["trainer"]["num_epochs"] > 0, f"{dataset} {model}"


def test_every_reported_ablation_row_names_a_config_that_exists():
    import json

    results = json.loads((REPO_ROOT / "benchmarks" / "results" / "dan.json").read_text())["datasets"]
    ablations = [
        (dataset, model)
        for dataset, rows in results.items()
        for model in rows
        if model not in CORE and model in dan.MODELS
    ]
    assert ablations, "the saved results report no ablation row"
    for dataset, model in ablations:
        config = _read(dan.model_runs(dataset)[model].config)
        assert config["train_data_path"] != _read(dan.model_runs(dataset)["dan_kd"].config)["train_data_path"]


def test_gpu_and_cpu_setups_read_different_runs_of_the_same_data():
    student = "training_configs/dan/student.jsonnet"
    for gpu, cpu in (("sst2", "sst2_cpu"), ("imdb", "imdb_cpu")):
        gpu_runs, cpu_runs = dan.model_runs(gpu), dan.model_runs(cpu)
        assert gpu_runs["teacher"].folder == f"{gpu}_full/teacher" and cpu_runs["teacher"].folder == f"{gpu}/teacher"
        assert gpu_runs["dan_kd"].config == f"DATASET={gpu}_full STAGE=kd {student}"
        assert cpu_runs["dan_kd"].config == f"DATASET={gpu} STAGE=kd {student}"
        assert gpu_runs["teacher"].config == f"training_configs/dan/teacher_{gpu}_full.jsonnet"
        assert dan.RUN_SETUP[gpu][2] == dan.RUN_SETUP[cpu][2] == gpu
    assert dan.run_folder("trec") == "trec"
    assert dan.model_runs("trec")["dan_kd"].config == f"DATASET=trec STAGE=kd {student}"
