"""uvicorn's HTTP protocols with a deadline for a request's headers and a cap on open connections.

Why: uvicorn times out only idle keep-alive connections, and any byte received cancels that
timer, so a client that sends one header line every few seconds (slowloris) holds a connection,
its buffers and a file descriptor for ever; 1,000 such clients exhaust a small server. uvicorn has
no header timeout of its own (its `limit_concurrency` answers 503 only once a request's headers
are complete), so each protocol class is wrapped here: a connection must deliver a request's
headers within `header_timeout` seconds of opening, and again of each response's end, or it is
closed; beyond `max_connections` open connections a new one is closed at once. This is what
nginx (`client_header_timeout`) and gunicorn (`--timeout` on sync workers) do in front of an app.
"""

import asyncio
import logging
from typing import Any, Optional

logger = logging.getLogger("green_nlp.serve")


def protocol_class(http: str) -> type[asyncio.Protocol]:
    """uvicorn's protocol class for `--http` (auto: httptools, in C, where installed)."""
    if http in ("auto", "httptools"):
        try:
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

            return HttpToolsProtocol
        except ImportError:
            if http == "httptools":
                raise
    from uvicorn.protocols.http.h11_impl import H11Protocol

    return H11Protocol


def guarded_protocol(http: str, header_timeout: float, max_connections: int) -> type[asyncio.Protocol]:
    """`protocol_class(http)` with the header deadline and the connection cap (see the module's docstring)."""
    base: Any = protocol_class(http)

    class GuardedProtocol(base):
        _header_deadline: Optional[asyncio.TimerHandle] = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                logger.warning("%d connections open, the limit (--max-connections): closing a new one", max_connections)
                transport.close()
                return
            self._arm_header_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_header_deadline()

        def connection_lost(self, exc: Optional[Exception]) -> None:
            self._cancel_header_deadline()
            super().connection_lost(exc)

        def _arm_header_deadline(self) -> None:
            self._cancel_header_deadline()
            self._header_deadline = self.loop.call_later(header_timeout, self._header_deadline_passed, self.cycle)

        def _cancel_header_deadline(self) -> None:
            if self._header_deadline is not None:
                self._header_deadline.cancel()
                self._header_deadline = None

        def _header_deadline_passed(self, cycle_when_armed: Any) -> None:
            self._header_deadline = None
            # a new request's headers arrived in time exactly when uvicorn started a new cycle; a
            # request still being answered (a pipelined one) is not cut off
            idle = self.cycle is cycle_when_armed and (self.cycle is None or self.cycle.response_complete)
            if idle and not self.transport.is_closing():
                self.transport.close()

    GuardedProtocol.__name__ = GuardedProtocol.__qualname__ = f"Guarded{base.__name__}"
    return GuardedProtocol
