"""`green-nlp serve` over HTTP, as a hostile or careless client meets it: one real server (the shipped
parser and sentiment model, short timeouts and small limits so that the cases stay short) answers
every case; the last case stops it with SIGTERM and reads its log."""

import functools
import json
import socket
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from benchmarks.robustness.cases.case import SERVER, SHIPPED_PARSER, Case, Outcome
from benchmarks.robustness.cases.scrub import scrub

SENTIMENT = "en-sst2-sentiment"
PARSE, CLASSIFY = f"/v1/{SHIPPED_PARSER}/parse", f"/v1/{SENTIMENT}/classify"
HEADER_TIMEOUT, MAX_CONNECTIONS = 1.0, 100
OPTIONS = [
    "--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", "1", "--max-connections", str(MAX_CONNECTIONS),
    "--max-body-bytes", "120000", "--max-text-chars", "8000", "--max-texts", "8", "--threads", "1",
]  # fmt: skip


@functools.cache
def server() -> Any:
    from green_nlp.serve.launcher import ServerProcess

    return ServerProcess([SHIPPED_PARSER, SENTIMENT], OPTIONS)


def _connect() -> socket.socket:
    address = urlsplit(server().url)
    return socket.create_connection((address.hostname, address.port), timeout=10)


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
        return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def _read_all(sock: socket.socket, seconds: float) -> tuple[bytes, bool]:
    """(what the server sent, whether it closed the connection within `seconds`)."""
    sock.settimeout(seconds)
    chunks: list[bytes] = []
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return b"".join(chunks), True
            chunks.append(data)
    except (ConnectionResetError, BrokenPipeError):
        return b"".join(chunks), True
    except TimeoutError:
        return b"".join(chunks), False


def request(method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[int, str]:
    """(status, body) of one request sent as raw bytes (the client adds nothing of its own)."""
    with _connect() as sock:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\nConnection: close\r\n{headers}\r\n"
        )
        sock.sendall(head.encode() + body)
        data, _ = _read_all(sock, 30)
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data.split(b"\r\n\r\n", 1)[-1].decode("utf-8", errors="replace")


def answer_check(status: int, *wanted: str) -> Callable[[tuple[int, str]], Outcome]:
    """The status (400: any 4xx, as the issue asks for a client error without naming one) and a body
    holding every fragment, no traceback."""

    def check(result: tuple[int, str]) -> Outcome:
        got, body = result
        missing = [part for part in wanted if part not in body]
        right = 400 <= got < 500 if status == 400 else got == status
        ok = right and not missing and "Traceback" not in body
        return ok, f"{got}: {scrub(body)[:200]}" + (f"; lacks {missing}" if missing else "")

    return check


def slowloris(connections: int) -> tuple[int, int, float]:
    """`connections` clients each sending one header line every 0.4 s: (closed by the server, still
    open after the header deadline + 3 s, seconds), then a normal request must still be answered."""
    socks = [_connect() for _ in range(connections)]
    started, closed = time.monotonic(), set()
    try:
        for sock in socks:
            sock.sendall(f"POST {PARSE} HTTP/1.1\r\nHost: x\r\n".encode())
        for line in range(int((HEADER_TIMEOUT + 3) / 0.4)):
            time.sleep(0.4)
            for i, sock in enumerate(socks):
                if i in closed:
                    continue
                try:
                    sock.sendall(f"X-Slow-{line}: {line}\r\n".encode())
                except OSError:
                    closed.add(i)
        closed |= {i for i, sock in enumerate(socks) if i not in closed and _closed_within(sock, 0.05)}
    finally:
        for sock in socks:
            sock.close()
    return len(closed), connections - len(closed), time.monotonic() - started


def slowloris_check(result: tuple[int, int, float]) -> Outcome:
    closed, open_, seconds = result
    status, _ = request("POST", PARSE, json.dumps({"text": "The server is free again."}).encode())
    ok = open_ == 0 and status == 200
    return ok, f"{closed} slow clients closed, {open_} still open after {seconds:.1f} s; next request {status}"


def connection_cap() -> tuple[int, int, bool, int]:
    """MAX_CONNECTIONS + 50 idle connections: (closed at once, total, all closed by the header
    deadline, the next request's status)."""
    idle = [_connect() for _ in range(MAX_CONNECTIONS + 50)]
    try:
        time.sleep(0.3)
        at_once = sum(_closed_within(sock, 0.02) for sock in idle)
        all_closed = all(_closed_within(sock, HEADER_TIMEOUT + 2) for sock in idle)
    finally:
        for sock in idle:
            sock.close()
    status, _ = request("POST", PARSE, json.dumps({"text": "Free again."}).encode())
    return at_once, len(idle), all_closed, status


def cap_check(result: tuple[int, int, bool, int]) -> Outcome:
    at_once, total, all_closed, status = result
    ok = at_once >= total - MAX_CONNECTIONS - 1 and all_closed and status == 200
    return ok, (
        f"{at_once} of {total} idle connections closed at once (cap {MAX_CONNECTIONS}), "
        f"{'all' if all_closed else 'not all'} closed by the header deadline; next request {status}"
    )


def chunked_over_size() -> tuple[int, str, bool]:
    with _connect() as sock:
        sock.sendall(f"POST {PARSE} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        try:
            for _ in range(150):
                sock.sendall(f"{1000:x}\r\n".encode() + b"a" * 1000 + b"\r\n")
        except OSError:
            pass  # the server closed while the body was still coming: what is wanted
        data, closed = _read_all(sock, 10)
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data.decode("utf-8", errors="replace"), closed


def chunked_check(result: tuple[int, str, bool]) -> Outcome:
    status, text, closed = result
    ok = status == 413 and closed and "limit" in text
    return ok, f"{status}, connection {'closed' if closed else 'kept open'}: {text.split(chr(10))[-1][:150]}"


def stop_with_sigterm() -> tuple[int, str]:
    running = server()
    running.terminate()
    code = running.wait(60)
    deadline = time.monotonic() + 5
    while "stopped" not in "".join(running.log) and time.monotonic() < deadline:
        time.sleep(0.05)
    return code, "".join(running.log)


def sigterm_check(result: tuple[int, str]) -> Outcome:
    code, log = result
    stopped = "green-nlp serve: stopped" in log
    ok = stopped and "Traceback" not in log and code in (0, -15)  # uvicorn re-raises SIGTERM after draining
    how = "SIGTERM re-raised" if code == -15 else "status"
    return ok, f"exit {code} ({how}); 'stopped' line {'printed' if stopped else 'missing'}"


def _post(path: str, body: bytes) -> Callable[[], tuple[int, str]]:
    return lambda: request("POST", path, body)


def server_cases() -> list[Case]:
    through = "green-nlp serve (one server for every case)"

    def http(name: str, expected: str, run: Callable[[], Any], check: Callable[[Any], Outcome]) -> Case:
        return Case(f"serve: {name}", through, expected, run, check=check, entry=SERVER)

    deep = b'{"texts": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    cases = [
        http(
            "slowloris, 1,000 clients",
            "every slow client closed by the header deadline; the server still answers",
            lambda: slowloris(1000),
            slowloris_check,
        ),
        http(
            f"{MAX_CONNECTIONS + 50} idle connections",
            "those over the cap closed at once, the rest by the deadline",
            connection_cap,
            cap_check,
        ),
        http(
            "over-size chunked body",
            "413 naming the limit, then the connection closed",
            chunked_over_size,
            chunked_check,
        ),
        http("slow body", "408 naming the body timeout", lambda: _slow_body(), answer_check(408, "within 1 s")),
        http(
            "JSON nested 50,000 deep",
            "400 naming the nesting limit",
            _post(PARSE, deep),
            answer_check(400, "nested too deeply"),
        ),
        http(
            "a lone surrogate",
            "4xx naming the surrogate and its position",
            _post(PARSE, b'{"text": "bad \\ud800 text"}'),
            answer_check(400, "lone surrogate", "position 5"),
        ),
        http(
            "a NUL character",
            "4xx naming NUL and its position",
            _post(PARSE, b'{"text": "a\\u0000b"}'),
            answer_check(400, "NUL", "position 2"),
        ),
        http(
            "a NUL in one of texts",
            "that text's error names it ([1]); the other parsed",
            _post(PARSE, b'{"texts": ["fine", "NUL \\u0000 here"]}'),
            answer_check(200, "[1] holds a NUL"),
        ),
        http(
            "GET /favicon.ico",
            "answered (no 404 in every browser's log)",
            lambda: request("GET", "/favicon.ico"),
            answer_check(200),
        ),
        http(
            "broken JSON", "400 naming where the JSON breaks", _post(PARSE, b'{"text": "a"'), answer_check(400, "JSON")
        ),
        http(
            "a JSON array body",
            "4xx naming what a body must be",
            _post(CLASSIFY, b'["a fine film", 1]'),
            answer_check(400, "object"),
        ),
        http(
            "text of the wrong type",
            "4xx naming the field",
            _post(PARSE, b'{"text": 5}'),
            answer_check(400, "text", "string"),
        ),
        http(
            "no text field",
            "4xx naming the field and those a body has",
            _post(CLASSIFY, b'{"txt": "fine"}'),
            answer_check(400, "txt", "text"),
        ),
        http(
            "empty text",
            "an error naming the empty text, not a parse of nothing",
            _post(PARSE, b'{"text": ""}'),
            answer_check(400, "empty"),
        ),
        http(
            "empty text to classify",
            "an error, not 'negative' counted as predicted",
            _post(CLASSIFY, b'{"text": ""}'),
            answer_check(400, "empty"),
        ),
        http(
            "text over --max-text-chars",
            "4xx naming the limit",
            _post(PARSE, json.dumps({"text": "a " * 5000}).encode()),
            answer_check(400, "8,000"),
        ),
        http(
            "more texts than --max-texts",
            "413 naming the limit",
            _post(CLASSIFY, json.dumps({"texts": ["fine"] * 9}).encode()),
            answer_check(413, "8"),
        ),
        http(
            "an unknown model",
            "404 naming the model and the served ones",
            _post("/v1/en-no-such/parse", b'{"text": "a"}'),
            answer_check(404, "en-no-such", SHIPPED_PARSER),
        ),
        http(
            "a task the model has not",
            "404 naming what the model does",
            _post(f"/v1/{SENTIMENT}/parse", b'{"text": "a"}'),
            answer_check(404, "classify"),
        ),
        http("a non-UTF-8 body", "400 naming UTF-8", _post(PARSE, b'{"text": "\xff\xfe"}'), answer_check(400, "UTF-8")),
        http(
            "a 1,500-word text",
            "an error naming max_sentence_length, not a 500",
            _post(PARSE, json.dumps({"text": "word " * 1500}).encode()),
            answer_check(400, "max_sentence_length"),
        ),
        http("SIGTERM", "drains and prints 'green-nlp serve: stopped', exit 0", stop_with_sigterm, sigterm_check),
    ]
    return cases


def _slow_body() -> tuple[int, str]:
    with _connect() as sock:
        sock.sendall(f"POST {PARSE} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n".encode() + b'{"text": ')
        data, _ = _read_all(sock, 10)
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data.split(b"\r\n\r\n", 1)[-1].decode("utf-8", errors="replace")


def server_case_table() -> dict[str, Case]:
    return {case.name: case for case in server_cases()}
