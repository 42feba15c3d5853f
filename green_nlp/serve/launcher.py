"""Start `green-nlp serve` as a child process and wait until it listens: for tests, benchmarks and
scripts that need a real server on a free loopback port."""

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Optional, Self, Union

LISTENING = re.compile(r"green-nlp serve: .* on (http://\S+) \(pid (\d+)\)")


class ServerProcess:
    """A running `green-nlp serve`; `url` is its base address. Its stderr is kept in `log`."""

    def __init__(
        self,
        models: Sequence[Union[str, Path]],
        options: Sequence[str] = (),
        timeout: float = 120,
        python: Optional[str] = None,
        env: Optional[dict] = None,
    ) -> None:
        command = [
            python or sys.executable,
            "-m",
            "green_nlp.cli",
            "serve",
            *map(str, models),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            *options,
        ]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})}
        )
        self.log: list[str] = []
        self.url = ""
        self._listening = threading.Event()
        threading.Thread(target=self._read_log, daemon=True).start()
        deadline = time.monotonic() + timeout
        while not self._listening.wait(0.1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("green-nlp serve did not start:\n" + "".join(self.log[-40:]))

    def _read_log(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log.append(line)
            found = LISTENING.search(line)
            if found and not self.url:
                self.url = found.group(1)
                self._listening.set()

    @property
    def pid(self) -> int:
        return self.process.pid

    def terminate(self) -> None:
        """SIGTERM: the server drains and exits."""
        self.process.send_signal(signal.SIGTERM)

    def wait(self, timeout: float = 60) -> int:
        return self.process.wait(timeout)

    def stop(self, timeout: float = 60) -> Optional[int]:
        if self.process.poll() is None:
            self.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
