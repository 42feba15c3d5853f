"""The ASGI application: routes, micro-batchers per model and task, JSON errors.

Starlette (with uvicorn) because it is a small, maintained ASGI toolkit with no dependencies of
its own beyond anyio: routing, requests and responses without FastAPI's pydantic layer, which
this API (two request fields, checked by hand for precise messages) would not use.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any, Optional

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from green_nlp.serve import import_guard
from green_nlp.serve.batcher import MicroBatcher, Outcome, Overloaded
from green_nlp.serve.models import FORMAT_METHODS, TASK_FORMATS, ServedModel
from green_nlp.serve.render import render
from green_nlp.serve.requests import ApiError, Limits, TextsRequest, clipped, read_request, shown

logger = logging.getLogger("green_nlp.serve")
RENDER = "render"  # the page's task: the model's own task, answered as an HTML fragment
# a green leaf, so a browser's automatic GET /favicon.ico is answered rather than logged as a 404
FAVICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    b'<path d="M2 14C2 6 8 2 14 2c0 8-5 12-12 12z" fill="#2e7d32"/></svg>'
)


@dataclass(frozen=True)
class Batching:
    max_batch: int = 32
    max_wait: float = 0.005
    max_queue: int = 4096


class ModelServer:
    """The state behind the routes: models, their batchers and worker threads, counters."""

    def __init__(self, models: dict[str, ServedModel], limits: Limits, batching: Batching) -> None:
        self.models, self.limits, self.batching = models, limits, batching
        self.batchers: dict[tuple[str, str], MicroBatcher] = {}
        self.executors: dict[str, ThreadPoolExecutor] = {}
        self.started = time.time()
        self.status_counts: dict[int, int] = {}

    def start(self) -> None:
        for name, model in self.models.items():
            # one thread per model: its calls run one at a time, so runtime objects need not be thread-safe
            executor = self.executors[name] = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"model-{name}")
            for task in model.tasks:
                batcher = MicroBatcher(model.predictor(task), executor, **vars(self.batching))
                batcher.start()
                self.batchers[(name, task)] = batcher

    async def stop(self) -> None:
        for batcher in self.batchers.values():
            await batcher.stop()
        for executor in self.executors.values():
            executor.shutdown(wait=True)

    def model_and_task(self, name: str, task: str) -> tuple[ServedModel, str]:
        """The model and its runtime task for a URL; 404 naming what exists."""
        model = self.models.get(name)
        if model is None:
            raise ApiError(
                404,
                f"no model {shown(name)} on this server: use one of {', '.join(sorted(self.models))} "
                "(GET /v1/models lists them)",
            )
        if task == RENDER:
            return model, model.tasks[0]
        if task not in model.tasks:
            raise ApiError(
                404, f"model {name!r} is a {model.family} and does not {task}: POST /v1/{name}/{model.tasks[0]} instead"
            )
        return model, task

    async def run(self, name: str, task: str, texts: list[str]) -> list[Outcome]:
        try:
            return await self.batchers[(name, task)].submit(texts)
        except Overloaded as error:
            raise ApiError(503, str(error), retry_after=1) from None

    def health(self) -> dict[str, Any]:
        per_model: dict[str, Any] = {}
        for (name, task), batcher in self.batchers.items():
            per_model.setdefault(name, {})[task] = {**batcher.stats.to_json(), "queued": batcher.queued}
        return {
            "status": "ok",
            "uptime_s": round(time.time() - self.started, 1),
            "rss_mb": rss_mb(),
            "heavy_modules": import_guard.heavy_modules(),
            "batching": vars(self.batching),
            "limits": vars(self.limits),
            "responses": {str(k): v for k, v in sorted(self.status_counts.items())},
            "models": per_model,
        }


def rss_mb() -> Any:
    """This process's resident memory in MB (Linux /proc; None elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    import os

    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


async def read_body(request: Request, limit: int, timeout: float = 30.0) -> bytes:
    """The body, refused with 413 as soon as it passes `limit` bytes (Starlette has no body limit of its
    own), or with 408 when it takes over `timeout` seconds (a slow sender holds a connection and a task)."""
    encoding = request.headers.get("content-encoding", "identity").strip().lower()
    if encoding not in ("", "identity"):
        raise ApiError(
            415, f"Content-Encoding {shown(encoding)} is not read here: send the JSON uncompressed", close=True
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(
            413,
            f"the body has {int(declared):,} bytes, over the limit of {limit:,}: send fewer or "
            "shorter texts per request",
            close=True,
        )
    chunks, size = [], 0
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    # close: reading the rest of an over-size (chunked) body would only feed the sender
                    raise ApiError(
                        413,
                        f"the body is over the limit of {limit:,} bytes: send fewer or shorter texts per request",
                        close=True,
                    )
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(
            408, f"the body did not arrive within {timeout:g} s ({size:,} bytes came): send it at once", close=True
        ) from None
    return b"".join(chunks)


def answer(request: TextsRequest, outcomes: list[Outcome], model: ServedModel) -> Response:
    """The response for a checked request whose runnable texts gave `outcomes` (in order)."""
    converter = FORMAT_METHODS[request.output_format]
    produced = iter(outcomes)
    slots: list[dict[str, Any]] = []
    for slot, text in enumerate(request.texts):
        if text is None:
            slots.append({"error": request.refused[slot], "status": 422})
            continue
        outcome = next(produced)
        if outcome.error is not None:  # named by its place, as the texts refused before the model are
            error = outcome.error if request.single else f'"texts"[{slot}]: {outcome.error}'
            slots.append({"error": error, "status": 422 if outcome.input_error else 500})
        elif request.output_format == "json":
            slots.append(outcome.result.to_json())
        else:
            slots.append({request.output_format: getattr(outcome.result, converter)()})
    if request.single:
        only = slots[0]
        if "error" in only:
            return JSONResponse({"error": only["error"]}, status_code=only["status"])
        if request.output_format != "json":
            return PlainTextResponse(only[request.output_format])
        return JSONResponse(only)
    failed = sum("error" in slot for slot in slots)
    return JSONResponse({"model": model.name, "results": slots, "errors": failed})


def create_app(
    models: dict[str, ServedModel], limits: Optional[Limits] = None, batching: Optional[Batching] = None
) -> Starlette:
    limits, batching = limits or Limits(), batching or Batching()
    server = ModelServer(models, limits, batching)
    page = resources.files("green_nlp.serve").joinpath("page.html").read_text(encoding="utf-8")

    async def predict(request: Request) -> Response:
        name, task = request.path_params["model"], request.path_params["task"]
        model, model_task = server.model_and_task(name, task)
        formats = ("json",) if task == RENDER else TASK_FORMATS[model_task]
        body = await read_body(request, limits.max_body_bytes, limits.body_timeout)
        checked = read_request(
            body, limits, formats, request.query_params.get("format"), request.headers.get("accept", "")
        )
        if task == RENDER and not checked.single:  # refused before the model runs on every text
            raise ApiError(400, f'POST /v1/{name}/render draws one text: send {{"text": "..."}}')
        outcomes = await server.run(name, model_task, checked.runnable)
        if task != RENDER:
            return answer(checked, outcomes, model)
        outcome = outcomes[0]
        if outcome.error is not None:
            raise ApiError(422 if outcome.input_error else 500, outcome.error)
        result = outcome.result.to_json()
        return JSONResponse(
            {
                "model": name,
                "family": model.family,
                "task": model_task,
                "html": render(model_task, result),
                "result": result,
            }
        )

    async def list_models(request: Request) -> Response:
        return JSONResponse({"models": [model.describe() for model in models.values()]})

    async def health(request: Request) -> Response:
        return JSONResponse(server.health())

    async def index(request: Request) -> Response:
        return HTMLResponse(page)

    async def api_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, ApiError)
        headers = {"connection": "close"} if error.close else {}
        if error.retry_after is not None:
            headers["retry-after"] = str(error.retry_after)
        return JSONResponse({"error": error.message}, status_code=error.status, headers=headers or None)

    async def favicon(request: Request) -> Response:
        return Response(FAVICON, media_type="image/svg+xml", headers={"cache-control": "max-age=86400"})

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return JSONResponse(
            {
                "error": f"{error.detail}: {request.method} {clipped(request.url.path, 200)} is not part of this API "
                "(GET /, /health, /v1/models; POST /v1/{model}/parse|tag|classify)"
            },
            status_code=error.status_code,
            headers=error.headers,
        )

    async def internal_error(request: Request, error: Exception) -> Response:
        # Starlette answers this outside the middleware, so StatusCounter never sees the 500
        server.status_counts[500] = server.status_counts.get(500, 0) + 1
        logger.error("unhandled error on %s %s", request.method, request.url.path, exc_info=error)
        return JSONResponse(
            {"error": f"internal error ({type(error).__name__}); the server log has the details"}, status_code=500
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.start()
        yield
        logger.info("requests drained; answering what is still queued, then stopping")
        await server.stop()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/favicon.ico", favicon),
            Route("/health", health),
            Route("/v1/models", list_models),
            Route("/v1/{model}/{task:str}", predict, methods=["POST"]),
        ],
        exception_handlers={ApiError: api_error, HTTPException: http_error, Exception: internal_error},
        middleware=[Middleware(StatusCounter, counts=server.status_counts)],
        lifespan=lifespan,
    )
    # `/health/` is a 404 that says what the API has, not a bare 307 to a URL built from the Host header
    app.router.redirect_slashes = False
    app.state.server = server
    return app


class StatusCounter:
    """ASGI middleware counting responses by status, so /health shows any 4xx and 5xx answered."""

    def __init__(self, app: ASGIApp, counts: dict[int, int]) -> None:
        self.app, self.counts = app, counts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def counting_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.counts[message["status"]] = self.counts.get(message["status"], 0) + 1
            await send(message)

        await self.app(scope, receive, counting_send)
