"""An error the server did not foresee is a JSON 500 that /health counts (Starlette answers it
outside the middleware that counts the others)."""

import asyncio
from pathlib import Path

import httpx

from green_nlp.serve.app import create_app
from green_nlp.serve.models import ServedModel


class BrokenModel(ServedModel):
    def describe(self):
        raise RuntimeError("a bug")


def test_an_unforeseen_error_is_a_json_500_that_health_counts():
    app = create_app({"broken": BrokenModel("broken", "classifier", None, Path("."), {})})

    async def ask() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/v1/models"), await client.get("/health")

    response, health = asyncio.run(ask())
    assert response.status_code == 500
    assert response.json() == {"error": "internal error (RuntimeError); the server log has the details"}
    assert health.json()["responses"].get("500") == 1
