"""Refusals checked on an app in this process, with a stand-in model that counts its calls: a full
queue says when to retry, `render` of many texts is refused before the model runs, and a compressed
body is refused rather than read as broken UTF-8."""

import asyncio
from pathlib import Path

import httpx

from green_nlp.serve.app import Batching, create_app
from green_nlp.serve.models import ServedModel


class CountingClassifier:
    def __init__(self) -> None:
        self.texts = 0

    def classify_many(self, texts, batch_size=32):
        self.texts += len(texts)
        raise AssertionError("the model ran")


def ask(requests: list[tuple[str, dict, dict]], max_queue: int = 4096) -> tuple[list[httpx.Response], int]:
    runtime = CountingClassifier()
    app = create_app(
        {"fake": ServedModel("fake", "classifier", runtime, Path("."), {})}, batching=Batching(max_queue=max_queue)
    )

    async def send() -> list[httpx.Response]:
        app.state.server.start()  # the batchers need the running loop (Starlette's lifespan does this)
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                return [await client.post(path, json=body, headers=headers) for path, body, headers in requests]
        finally:
            await app.state.server.stop()

    return asyncio.run(send()), runtime.texts


def test_a_full_queue_says_when_to_retry() -> None:
    (response,), ran = ask([("/v1/fake/classify", {"texts": ["a", "b", "c"]}, {})], max_queue=2)
    assert response.status_code == 503 and response.headers["retry-after"] == "1" and ran == 0


def test_render_of_many_texts_is_refused_before_the_model_runs() -> None:
    (response,), ran = ask([("/v1/fake/render", {"texts": ["a", "b"]}, {})])
    assert response.status_code == 400 and '"text"' in response.json()["error"] and ran == 0


def test_a_compressed_body_is_refused_by_its_encoding() -> None:
    (response,), ran = ask([("/v1/fake/classify", {"text": "a"}, {"content-encoding": "gzip"})])
    assert response.status_code == 415 and "uncompressed" in response.json()["error"] and ran == 0
