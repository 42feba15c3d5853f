"""`green-nlp serve MODEL [MODEL ...]`: load the models, bind, run uvicorn until SIGTERM or Ctrl-C.

uvicorn drains on SIGTERM and SIGINT: it stops listening, lets in-flight requests finish (up to
--graceful-timeout seconds), then runs the app's shutdown, which answers whatever is still queued.
"""

import argparse
import logging
import os
import socket
import sys
from collections.abc import Sequence
from typing import Any, Optional

from green_nlp.serve import import_guard

logger = logging.getLogger("green_nlp.serve")


def _port(text: str) -> int:
    """A TCP port, 0-65535 (0: any free one); the operating system would wrap a larger number."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0-65535; 0 picks a free one)")
    return port


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="green-nlp serve", description="Serve exported green models over HTTP (micro-batched, no torch)."
    )
    parser.add_argument(
        "models",
        nargs="+",
        metavar="MODEL",
        help="shipped model names (see `green-nlp models`) or exported folders; served under their name or folder name",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every interface)")
    parser.add_argument("--port", type=_port, default=8080, help="port to listen on (0: any free port)")
    batching = parser.add_argument_group("micro-batching")
    batching.add_argument("--max-batch", type=int, default=32, help="most texts in one model call (1: no batching)")
    batching.add_argument(
        "--max-wait-ms",
        type=float,
        default=5.0,
        help="the longest a text waits for others to join its batch (only while traffic brings company)",
    )
    batching.add_argument(
        "--max-queue", type=int, default=4096, help="texts queued per model before requests get 503 (retry later)"
    )
    limits = parser.add_argument_group("limits")
    limits.add_argument("--max-body-bytes", type=int, default=1_000_000, help="largest request body")
    limits.add_argument("--max-text-chars", type=int, default=10_000, help="longest text")
    limits.add_argument("--max-texts", type=int, default=64, help="most texts in one request")
    limits.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        help="seconds a connection gets to send a request's headers, after opening and after each response "
        "(slow senders are closed: a slowloris client cannot hold a connection)",
    )
    limits.add_argument(
        "--body-timeout", type=float, default=30.0, help="seconds a request gets to send its whole body (else 408)"
    )
    limits.add_argument(
        "--max-connections",
        type=int,
        default=1000,
        help="open connections at most; a new one beyond is closed at once",
    )
    runtime = parser.add_argument_group("runtime")
    runtime.add_argument(
        "--precision",
        choices=("auto", "fp32", "int8"),
        default="auto",
        help="which exported graph to run (auto: fp32 where the folder has it)",
    )
    runtime.add_argument(
        "--threads",
        type=int,
        default=1,
        help="onnxruntime threads per model call (throughput comes from batching; more "
        "threads compete with the server's own thread on a small machine)",
    )
    runtime.add_argument(
        "--split-sentences",
        action="store_true",
        help="classifiers answer with the mean of each text's sentences, for texts longer than a sentence "
        "(as green-nlp classify --split-sentences; parsers split sentences anyway)",
    )
    runtime.add_argument(
        "--engine",
        choices=("onnxruntime", "numba"),
        default="onnxruntime",
        help="the classifiers' engine: numba runs the same int8 graph compiled (pip install 'green_nlp[numba]'), "
        "several times faster per text, at about half a second more start-up, paid once",
    )
    runtime.add_argument(
        "--graceful-timeout", type=float, default=30.0, help="seconds to let in-flight requests finish after SIGTERM"
    )
    runtime.add_argument(
        "--http",
        choices=("auto", "httptools", "h11"),
        default="auto",
        help="uvicorn's HTTP parser (auto: httptools, in C, where installed)",
    )
    runtime.add_argument(
        "--loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="the event loop (auto: uvloop where installed)",
    )
    runtime.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    runtime.add_argument("--access-log", action="store_true", help="log every request (off: it costs throughput)")
    return parser


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound, listening socket; with port 0 the system picks a free port (printed at start)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    problems = [
        f"--{name.replace('_', '-')} must be positive"
        for name in (
            "max_batch",
            "max_queue",
            "max_body_bytes",
            "max_text_chars",
            "max_texts",
            "threads",
            "max_connections",
        )
        if getattr(args, name) < 1
    ] + [
        f"--{name.replace('_', '-')} must be a positive number of seconds"
        for name in ("header_timeout", "body_timeout")
        if not getattr(args, name) > 0  # NaN too
    ]
    problems += ["--max-wait-ms must not be negative"] if args.max_wait_ms < 0 else []
    if problems:
        print(f"green-nlp serve: {'; '.join(problems)}", file=sys.stderr)
        return 2
    import_guard.install()
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s:     %(message)s")
    from green_nlp.runtime.errors import InputKindError, ModelFolderError
    from green_nlp.serve.models import load_models, warm_up

    try:
        models = load_models(
            args.models,
            precision=args.precision,
            threads=args.threads,
            split_sentences=args.split_sentences,
            engine=args.engine,
        )
    except (FileNotFoundError, ValueError, ImportError) as error:  # ImportError: --engine numba without numba
        print(f"green-nlp serve: {error}", file=sys.stderr)
        return 2
    try:
        for model in models.values():
            for problem in warm_up(model):
                logger.warning("%s", problem)
    except (ModelFolderError, InputKindError) as error:  # no text would go through this model
        print(f"green-nlp serve: {error}", file=sys.stderr)
        return 2
    import spacy.displacy  # noqa: F401  (the page's drawings; imported now, not on the first page request)

    return serve(models, args)


def serve(models: dict[str, Any], args: argparse.Namespace) -> int:
    import uvicorn

    from green_nlp.serve.app import Batching, create_app
    from green_nlp.serve.protocols import guarded_protocol
    from green_nlp.serve.requests import Limits

    app = create_app(
        models,
        Limits(args.max_body_bytes, args.max_text_chars, args.max_texts, args.body_timeout),
        Batching(args.max_batch, args.max_wait_ms / 1000, args.max_queue),
    )
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as error:
        print(f"green-nlp serve: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(
        f"green-nlp serve: {', '.join(models)} on http://{shown}:{port} (pid {os.getpid()})",
        file=sys.stderr,
        flush=True,
    )
    config = uvicorn.Config(
        app,
        http=guarded_protocol(args.http, args.header_timeout, args.max_connections),
        loop=args.loop,
        log_level=args.log_level,
        access_log=args.access_log,
        timeout_graceful_shutdown=args.graceful_timeout,
        lifespan="on",
    )
    stopping_server(config).run(sockets=[sock])
    return 0


def stopping_server(config: Any) -> Any:
    """uvicorn's server, saying `stopped` once it has shut down. uvicorn re-raises SIGTERM/SIGINT
    after its graceful shutdown (so the exit status tells the signal), so code after `run()` never
    runs on a signal; the end of `shutdown` always does."""
    import uvicorn

    class StoppingServer(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            await super().shutdown(sockets=sockets)
            print("green-nlp serve: stopped", file=sys.stderr, flush=True)

    return StoppingServer(config)
