"""benchmarks.dan.distillation reads each result row from a named run and config: the GPU-teacher setups
(`sst2`, `imdb`) and the CPU-sized ones (`sst2_cpu`, `imdb_cpu`) must point at different runs,
configs that exist, and the same evaluation data."""
from benchmarks.dan import distillation as dan
from tests.conftest import REPO_ROOT

CORE = ("teacher", "dan_scratch", "dan_kd", "dan_kd_ft")


def test_every_core_row_names_a_config_that_exists():
    for dataset in dan.DATASETS:
        runs = dan.model_runs(dataset)
        for model in CORE:
            config = REPO_ROOT / "training_configs" / "dan" / f"{runs[model].config}.jsonnet"
            assert config.exists(), f"{dataset} {model}: no {config.name}"


def test_every_reported_ablation_row_names_a_config_that_exists():
    import json

    results = json.loads((REPO_ROOT / "benchmarks" / "results" / "dan.json").read_text())["datasets"]
    ablations = [(dataset, model) for dataset, rows in results.items() for model in rows if model not in CORE
                 and model in dan.MODELS]
    assert ablations, "the saved results report no ablation row"
    for dataset, model in ablations:
        config = REPO_ROOT / "training_configs" / "dan" / f"{dan.model_runs(dataset)[model].config}.jsonnet"
        assert config.exists(), f"{dataset} {model}: no {config.name}"


def test_gpu_and_cpu_setups_read_different_runs_of_the_same_data():
    for gpu, cpu in (("sst2", "sst2_cpu"), ("imdb", "imdb_cpu")):
        gpu_runs, cpu_runs = dan.model_runs(gpu), dan.model_runs(cpu)
        assert gpu_runs["teacher"].folder == f"{gpu}_full/teacher" and cpu_runs["teacher"].folder == f"{gpu}/teacher"
        assert gpu_runs["dan_kd"].config == f"dan_kd_{gpu}_full" and cpu_runs["dan_kd"].config == f"dan_kd_{gpu}"
        assert dan.RUN_SETUP[gpu][2] == dan.RUN_SETUP[cpu][2] == gpu
    assert dan.run_folder("trec") == "trec" and dan.model_runs("trec")["dan_kd"].config == "dan_kd_trec"
