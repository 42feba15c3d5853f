"""A pool of model-holding Ray actors and an ordered map over it.

`ray` is imported when a pool is used (`options.require_ray`), not with this module: green_nlp
installs without the ray extra and `--include-package green_nlp` imports every module. The actor
classes are plain classes that `ActorPool` makes remote on first use (`remote_class`).

Each actor loads its model once (in `__init__`) and answers many calls. Fault tolerance is Ray's
own: actors are created with `max_restarts=-1` and `max_task_retries=-1`, so when an actor process
dies Ray starts a new one (which loads the model again) and re-runs every call it had not answered.
The calls are pure functions of their arguments, so a re-run gives the same answer, and the driver
writes each answer once, in submission order: nothing is lost and nothing doubled.
"""

import contextlib
import functools
import logging
import os
import time
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from green_nlp.distributed_ray.options import LOCAL, RayOptions, require_ray

logger = logging.getLogger(__name__)

# Test hook (see `crash_point`): a file holding N makes the first actor that reaches its N-th call
# delete the file and exit, as a crashed or preempted worker would. The variable must be in the
# workers' environment: set it before `ray.init` / `ray start` (workers inherit it).
CRASH_FILE_ENV = "GREEN_NLP_RAY_CRASH_FILE"
_calls = 0


def crash_point() -> None:
    """Let a test kill one actor mid-run. Only the process that deletes the file exits, so exactly
    one crash happens however many actors (or restarted actors) see the file."""
    global _calls
    path = os.environ.get(CRASH_FILE_ENV)
    if not path or not os.path.exists(path):
        return
    _calls += 1
    try:
        with open(path, encoding="utf-8") as handle:
            after = int(handle.read().strip() or 1)
    except (OSError, ValueError):
        return
    if _calls >= after:
        try:
            os.remove(path)
        except OSError:
            return  # another actor won the race and exits instead
        logger.warning("%s: actor %d exits on purpose after %d calls", CRASH_FILE_ENV, os.getpid(), _calls)
        os._exit(1)


@functools.cache
def remote_class(actor_class: type) -> Any:
    """`actor_class` as a Ray actor class, made once, on first use (`@ray.remote` on the class
    would import ray with its module). The class names its `ray.remote` options in `ray_options`
    and its methods' `ray.method` options in `ray_methods` ({method name: options})."""
    ray = require_ray()
    for name, options in getattr(actor_class, "ray_methods", {}).items():
        ray.method(**options)(getattr(actor_class, name))  # marks the function itself; returns it
    options = getattr(actor_class, "ray_options", {})
    return ray.remote(**options)(actor_class) if options else ray.remote(actor_class)


LOOPBACK = "127.0.0.1"


@contextlib.contextmanager
def _loopback_only() -> Iterator[None]:
    """While Ray starts a local node: make it pick 127.0.0.1 as the node's address.

    On Linux Ray takes the machine's routable address and its GCS, raylet and workers listen on
    every interface (`::`), reachable by anyone on the network, with no authentication by default.
    `ray.init(_node_ip_address="127.0.0.1")` alone does not help: Ray maps a loopback address back
    to the routable one, except where clusters are off (`ray_constants.ENABLE_RAY_CLUSTER`, the
    switch Ray sets on macOS and Windows), which is what this turns off for the start.
    """
    from ray._private import ray_constants

    saved = getattr(ray_constants, "ENABLE_RAY_CLUSTER", None)
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved


def start_local() -> None:
    """A local Ray instance for this process alone: listening on 127.0.0.1, no dashboard."""
    ray = require_ray()
    with _loopback_only():
        ray.init(
            address=LOCAL,
            include_dashboard=False,
            logging_level=logging.WARNING,
            _node_ip_address=LOOPBACK,
        )
    node_ip = ray.util.get_node_ip_address()
    if node_ip != LOOPBACK:  # a Ray release that starts differently: say so rather than stay silent
        logger.warning(
            "this Ray release started the local instance on %s, not %s: its ports may be reachable from "
            "the network; start a loopback cluster yourself (ray start --head --node-ip-address=%s) and "
            "pass --ray auto",
            node_ip,
            LOOPBACK,
            LOOPBACK,
        )


@contextlib.contextmanager
def connected(address: str = LOCAL) -> Iterator[float]:
    """Connect to Ray and yield the seconds that took; shut down only an instance this call started,
    so a caller's own `ray.init` stays up. `local` starts an instance on 127.0.0.1 only, with no
    dashboard; any other address is a cluster the user chose (docs/distributed.md, security)."""
    ray = require_ray()
    if ray.is_initialized():
        yield 0.0
        return
    start = time.perf_counter()
    if address == LOCAL:
        start_local()
    else:
        ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING)
    try:
        yield time.perf_counter() - start
    finally:
        ray.shutdown()


def _actor_count(options: RayOptions) -> int:
    if options.actors is not None:
        return options.actors
    resources = require_ray().cluster_resources()
    if options.gpus_per_actor > 0:
        return max(1, int(resources.get("GPU", 0) // options.gpus_per_actor))
    return max(1, int(resources.get("CPU", 1) // options.cpus_per_actor))


class ActorPool:
    """`size` actors of one class (a plain class, see `remote_class`); `submit` sends a call to the
    least busy one.

    A context manager: leaving it kills the actors, so their CPUs are free for the next pool.
    """

    def __init__(self, actor_class: type, args: tuple[Any, ...], options: RayOptions) -> None:
        self.options = options
        size = _actor_count(options)
        available = require_ray().cluster_resources().get("CPU", 0)
        if size * options.cpus_per_actor > available:
            logger.warning(
                "%d actors x %g CPUs exceed the cluster's %g CPUs: some wait for room",
                size,
                options.cpus_per_actor,
                available,
            )
        settings: dict[str, Any] = dict(
            num_cpus=options.cpus_per_actor, num_gpus=options.gpus_per_actor, max_restarts=-1, max_task_retries=-1
        )
        remote = remote_class(actor_class)
        self.actors = [remote.options(**settings).remote(*args) for _ in range(size)]
        self._outstanding: list[list[Any]] = [[] for _ in self.actors]

    @property
    def size(self) -> int:
        return len(self.actors)

    @property
    def window(self) -> int:
        """Calls to keep in flight: a few per actor, so none waits for the driver between calls."""
        return self.size * max(1, self.options.in_flight_per_actor)

    def submit(self, method: str, *args: Any) -> Any:
        """Call `method` on the actor with the fewest unanswered calls; returns the ObjectRef."""
        ray = require_ray()
        for index, refs in enumerate(self._outstanding):
            if refs:
                _, self._outstanding[index] = ray.wait(refs, num_returns=len(refs), timeout=0)
        index = min(range(self.size), key=lambda i: len(self._outstanding[i]))
        ref = getattr(self.actors[index], method).remote(*args)
        self._outstanding[index].append(ref)
        return ref

    def map_ordered(self, method: str, items: Iterable[Any], *extra: Any) -> Iterator[tuple[Any, Any]]:
        """(item, method(item, *extra)) for every item, in input order, `window` calls in flight."""
        ray = require_ray()
        pending: deque[tuple[Any, Any]] = deque()
        for item in items:
            pending.append((item, self.submit(method, item, *extra)))
            if len(pending) >= self.window:
                head, ref = pending.popleft()
                yield head, ray.get(ref)
        while pending:
            head, ref = pending.popleft()
            yield head, ray.get(ref)

    def close(self) -> None:
        ray = require_ray()
        for actor in self.actors:
            ray.kill(actor)
        self.actors = []

    def __enter__(self) -> "ActorPool":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class ModelLoadError(RuntimeError):
    """The actors could not build their model (the message is the actor's own error)."""


def wait_until_loaded(pool: ActorPool) -> None:
    """Wait for every actor's model, so that a model that cannot load (a wrong path, bad arguments)
    fails the run once, with the actor's own error, before any line is sent. Actors call `ready`."""
    ray = require_ray()
    try:
        ray.get([actor.ready.remote() for actor in pool.actors])
    except ray.exceptions.RayActorError as error:
        lines = [line for line in str(error).splitlines() if line.strip()]
        raise ModelLoadError(f"the Ray actors could not load the model: {lines[-1] if lines else error}") from None
