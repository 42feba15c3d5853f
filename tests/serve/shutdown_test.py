"""SIGTERM: the server stops accepting, answers the requests in flight, then exits."""

import socket
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import httpx

from green_nlp.serve.launcher import ServerProcess
from tests.serve.conftest import PARSER


def refuses_connections(url: str, within: float = 5.0) -> bool:
    address = urlsplit(url)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            socket.create_connection((address.hostname, address.port), timeout=1).close()
        except ConnectionRefusedError:
            return True
        time.sleep(0.05)
    return False


def test_sigterm_drains_requests_in_flight(parser):
    texts = [f"Request {i} arrived before the signal." for i in range(6)]
    # a long batching wait keeps the requests queued in the server when the signal comes: the queue
    # waits for as many texts as the last model call held, so a first call of seven makes six wait
    with (
        ServerProcess([PARSER], ["--max-wait-ms", "1500"]) as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
        ThreadPoolExecutor(len(texts)) as pool,
    ):
        primer = client.post(f"/v1/{PARSER}/parse", json={"texts": [f"Warm-up text {i}." for i in range(7)]})
        assert primer.status_code == 200
        pending = [pool.submit(client.post, f"/v1/{PARSER}/parse", json={"text": text}) for text in texts]
        deadline = time.monotonic() + 20
        while client.get("/health").json()["models"][PARSER]["parse"]["queued"] < len(texts):
            assert time.monotonic() < deadline, "the requests never reached the server's queue"
            time.sleep(0.02)
        server.terminate()
        assert refuses_connections(server.url), "the server still accepts connections after SIGTERM"
        responses = [future.result() for future in pending]
        assert server.wait(30) in (0, -15)
    for text, response in zip(texts, responses):
        assert response.status_code == 200 and response.json() == parser.parse(text).to_json()
    log = "".join(server.log)
    assert "requests drained" in log and "Finished server process" in log
