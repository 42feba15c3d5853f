"""What a hostile or broken client can do to `green-nlp serve`, and what it gets back: slow headers
(slowloris) and slow bodies are cut off, open connections are capped, an over-size chunked body closes
the connection, and deep JSON, NUL characters and lone surrogates get a 4xx naming the problem."""

import json
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from green_nlp.serve.launcher import ServerProcess
from tests.conftest import REPO_ROOT
from tests.serve.conftest import PARSER

PARSE = f"/v1/{PARSER}/parse"
HEADER_TIMEOUT = 1.0
MAX_CONNECTIONS = 20


@pytest.fixture(scope="module")
def strict_server() -> Iterator[ServerProcess]:
    options = [
        "--header-timeout",
        str(HEADER_TIMEOUT),
        "--body-timeout",
        "1",
        "--max-connections",
        str(MAX_CONNECTIONS),
        "--max-body-bytes",
        "2000",
    ]
    with ServerProcess([PARSER], options) as running:
        yield running


def _connect(server: ServerProcess) -> socket.socket:
    address = urlsplit(server.url)
    sock = socket.create_connection((address.hostname, address.port), timeout=10)
    return sock


def _closed_by_server(sock: socket.socket, within: float) -> bool:
    """True when the server closes `sock` within `within` seconds (reads give b'' or a reset)."""
    sock.settimeout(within)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def _read_until_closed(sock: socket.socket, within: float) -> bytes:
    """Everything the server sends until it closes `sock`; a timeout fails the test (the server kept it open)."""
    sock.settimeout(within)
    chunks: list[bytes] = []
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return b"".join(chunks)
            chunks.append(data)
    except (ConnectionResetError, BrokenPipeError):
        return b"".join(chunks)
    except TimeoutError:
        pytest.fail(f"the server kept the connection open {within} s after answering {b''.join(chunks)[:200]!r}")


def _request(server: ServerProcess, body: bytes, path: str = PARSE) -> bytes:
    with _connect(server) as sock:
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        sock.sendall(head.encode() + body)
        chunks: list[bytes] = []
        while True:
            data = sock.recv(65536)
            if not data:
                return b"".join(chunks)
            chunks.append(data)


def _status(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def test_slow_headers_are_cut_off(strict_server):
    """One header line every 0.4 s keeps uvicorn's own keep-alive timer from ever firing; the header
    deadline closes the connection anyway."""
    with _connect(strict_server) as sock:
        sock.sendall(f"POST {PARSE} HTTP/1.1\r\nHost: x\r\n".encode())
        started = time.monotonic()
        closed = False
        for line in range(10):
            time.sleep(0.4)
            try:
                sock.sendall(f"X-Slow-{line}: {line}\r\n".encode())
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
        closed = closed or _closed_by_server(sock, 0.5)
        assert closed, "a client sending a header line every 0.4 s still holds its connection after 4 s"
        assert time.monotonic() - started < HEADER_TIMEOUT + 3


def test_idle_connections_are_capped_and_released(strict_server):
    idle = [_connect(strict_server) for _ in range(MAX_CONNECTIONS + 30)]
    try:
        time.sleep(0.3)
        refused = sum(_closed_by_server(sock, 0.05) for sock in idle)
        assert refused >= 30 - 1, f"only {refused} of the connections beyond the cap of {MAX_CONNECTIONS} were closed"
        # the ones within the cap sent nothing: the header deadline closes them too
        assert all(_closed_by_server(sock, HEADER_TIMEOUT + 2) for sock in idle)
    finally:
        for sock in idle:
            sock.close()
    response = _request(strict_server, json.dumps({"text": "The server is free again."}).encode())
    assert _status(response) == 200, response[:300]


def test_a_kept_alive_connection_gets_the_deadline_again_after_a_response(strict_server):
    body = json.dumps({"text": "One request."}).encode()
    with _connect(strict_server) as sock:
        sock.sendall(f"POST {PARSE} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        sock.settimeout(10)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.sendall(b"POST / HTTP/1.1\r\n")  # the next request starts, then stalls
        assert _closed_by_server(sock, HEADER_TIMEOUT + 5)


def test_an_over_size_chunked_body_gets_413_and_the_connection_closes(strict_server):
    with _connect(strict_server) as sock:
        sock.sendall(f"POST {PARSE} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b'{"text": "' + b"a" * 1000
        try:
            sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            for _ in range(3):
                sock.sendall(f"{1000:x}\r\n".encode() + b"a" * 1000 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered 413 and closed before the last chunks: what this test wants
        response = _read_until_closed(sock, 10)  # not left open to read the rest of the body
        assert _status(response) == 413 and b"limit of 2,000" in response
        assert b"connection: close" in response.lower()


def test_a_slow_body_gets_408(strict_server):
    with _connect(strict_server) as sock:
        sock.sendall(f"POST {PARSE} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n".encode() + b'{"text": ')
        response = _read_until_closed(sock, 10)
        assert _status(response) == 408 and b"within 1 s" in response


@pytest.mark.parametrize(
    "body,status,words",
    [
        (b'{"texts": ' + b"[" * 9_000 + b"]" * 9_000 + b"}", 400, ["nested too deeply"]),
        (b'{"text": "bad \\ud800 text"}', 422, ["lone surrogate", "U+D800", "position 5"]),
        (b'{"text": "a\\u0000b"}', 422, ["NUL", "position 2"]),
        (b'{"texts": ["fine", "NUL \\u0000 here"]}', 200, ["[1] holds a NUL", "position 5"]),
    ],
    ids=["deep JSON", "lone surrogate", "NUL", "NUL in one of texts"],
)
def test_unwritable_and_hostile_json_get_a_message(client, body, status, words):
    response = client.post(PARSE, content=body)
    assert response.status_code == status, response.text[:300]
    assert all(word in response.text for word in words), response.text[:500]


def test_the_favicon_is_answered(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")


def test_bad_timeouts_and_caps_are_refused_before_loading():
    from green_nlp.serve.server import main

    for option, value in (("--header-timeout", "0"), ("--body-timeout", "nan"), ("--max-connections", "0")):
        assert main([PARSER, option, value]) == 2


def test_a_model_whose_tokenizer_language_spacy_cannot_load_stops_the_start(tmp_path):
    """The server started, /health said ok and every request got 422 for the folder's fault."""
    import json
    import shutil
    import subprocess
    import sys

    from green_nlp.runtime.model_folder import record_file_hashes

    folder = tmp_path / "parser"
    shutil.copytree(REPO_ROOT / "pretrained" / PARSER, folder)
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    meta["tokenizer"]["language"] = "zz"
    (folder / "green_model.json").write_text(json.dumps(meta), encoding="utf-8")
    record_file_hashes(folder)
    command = [sys.executable, "-m", "green_nlp.cli", "serve", str(folder), "--host", "127.0.0.1", "--port", "0"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)  # a fresh process: no torch
    assert result.returncode == 2, result.stderr[-2000:]
    assert "key tokenizer.language: spaCy has no tokenizer rules for language 'zz'" in result.stderr
    assert "Uvicorn running" not in result.stderr and "Traceback" not in result.stderr


def test_a_parser_that_reads_gold_upos_is_refused_at_start_not_at_every_request(parser_folders):
    """It started, and every request got 422 advising JSON words and tags, which the API refuses."""
    import subprocess
    import sys

    folder = parser_folders["teacher"]  # trained with gold UPOS input
    command = [sys.executable, "-m", "green_nlp.cli", "serve", str(folder), "--host", "127.0.0.1", "--port", "0"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "cannot be served (the API takes raw text only): this parser was trained with gold UPOS" in result.stderr
    assert "Uvicorn running" not in result.stderr and "Traceback" not in result.stderr


def test_sigterm_says_stopped():
    with ServerProcess([PARSER]) as server:
        assert httpx.get(server.url + "/health", timeout=30).status_code == 200  # uvicorn handles signals now
        server.terminate()
        server.wait(30)
        deadline = time.monotonic() + 5  # the log reader thread may still be on the last lines
        while "green-nlp serve: stopped" not in "".join(server.log) and time.monotonic() < deadline:
            time.sleep(0.05)
    assert "green-nlp serve: stopped" in "".join(server.log)


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_a_port_outside_0_to_65535_is_refused_not_wrapped(port, capsys):
    from green_nlp.serve.server import build_parser

    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([PARSER, "--port", port])
    assert exit_.value.code == 2 and "--port" in capsys.readouterr().err
