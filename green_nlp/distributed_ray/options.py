"""The `--ray` switches shared by `allennlp green-predict`, `allennlp green-label-teacher` and
`green-nlp parse|tag|classify`. Imports nothing heavy: parsing the command line must not need Ray."""

import argparse
import importlib
import importlib.util
from dataclasses import dataclass
from types import ModuleType
from typing import Optional

LOCAL = "local"  # `--ray` with no address: a local instance with this machine's CPUs, on 127.0.0.1 only
INSTALL_RAY = "pip install 'green_nlp[ray]'"


def require_ray() -> ModuleType:
    """`ray`, imported on first use: green_nlp installs without the ray extra, and
    `--include-package green_nlp` imports every module of it, these included."""
    try:
        return importlib.import_module("ray")
    except ImportError as error:
        why = f"--ray needs the ray extra, which cannot be imported ({error}): {INSTALL_RAY}"
        raise ModuleNotFoundError(why) from error


@dataclass(frozen=True)
class RayOptions:
    """Where to run and how large each model-holding actor is."""

    address: str = LOCAL  # "local", "auto" (a running cluster) or "host:port" / "ray://host:port"
    actors: Optional[int] = None  # default: as many as the cluster's CPUs (or GPUs) allow
    cpus_per_actor: float = 1.0
    gpus_per_actor: float = 0.0
    in_flight_per_actor: int = 2  # calls queued on each actor, so it never waits for the driver


def add_ray_arguments(parser: argparse.ArgumentParser) -> None:
    """Add `--ray [ADDRESS]`, `--ray-actors`, `--ray-cpus-per-actor`, `--ray-gpus-per-actor`."""
    group = parser.add_argument_group("Ray (several processes or machines)")
    group.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL,
        default=None,
        metavar="ADDRESS",
        help="run on Ray: no ADDRESS starts a local instance with this machine's CPUs, listening on "
        "127.0.0.1 only, no dashboard; 'auto' joins a running cluster (`ray start --head`), or give "
        "host:port (a cluster's ports are open to its network: see docs/distributed.md)",
    )
    group.add_argument(
        "--ray-actors",
        type=int,
        default=None,
        help="model-holding actors, each loading the archive once (default: what the cluster fits)",
    )
    group.add_argument("--ray-cpus-per-actor", type=float, default=1.0, help="CPUs reserved by each actor")
    group.add_argument(
        "--ray-gpus-per-actor",
        type=float,
        default=0.0,
        help="GPUs reserved by each actor (then it runs the model on its GPU)",
    )


def ray_options(args: argparse.Namespace) -> Optional[RayOptions]:
    """The options the user gave, or None without `--ray` (the one-process path); values that cannot
    work are refused with or without `--ray`."""
    if args.ray_actors is not None and args.ray_actors < 1:
        raise ValueError(f"--ray-actors must be positive, got {args.ray_actors}")
    if args.ray_cpus_per_actor <= 0 or args.ray_gpus_per_actor < 0:
        raise ValueError("--ray-cpus-per-actor must be positive and --ray-gpus-per-actor not negative")
    if getattr(args, "ray", None) is None:
        return None
    if importlib.util.find_spec("ray") is None:  # found without importing it
        raise ValueError(f"--ray needs the ray extra, which is not installed: {INSTALL_RAY}")
    return RayOptions(
        address=args.ray,
        actors=args.ray_actors,
        cpus_per_actor=args.ray_cpus_per_actor,
        gpus_per_actor=args.ray_gpus_per_actor,
    )
