"""`--ray` with no address starts Ray on 127.0.0.1 only, without a dashboard (Linux: read from /proc)."""

import ipaddress
import os
import socket
import struct
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'green_nlp[ray]' or requirements/base.txt)")

from green_nlp.distributed_ray.options import LOCAL  # noqa: E402
from green_nlp.distributed_ray.pool import connected  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads listening sockets from /proc")


def _process_tree(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree, grown = {root}, True
    while grown:
        children = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= children
        grown = bool(children)
    return tree


def _socket_owners(pids: set[int]) -> dict[str, str]:
    """socket inode -> the name of the process holding it."""
    owners = {}
    for pid in pids:
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    owners[link[8:-1]] = name
        except OSError:
            continue
    return owners


def _listening(owners: dict[str, str]) -> set[tuple[str, str]]:
    """(address, process) of every TCP socket in LISTEN state that one of `owners` holds."""
    found = set()
    for table, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A" or fields[9] not in owners:  # 0A: LISTEN
                continue
            raw = fields[1].split(":")[0]
            words = b"".join(struct.pack("<I", int(raw[i : i + 8], 16)) for i in range(0, len(raw), 8))
            found.add((socket.inet_ntop(family, words), owners[fields[9]]))
    return found


def _is_loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def test_a_local_run_listens_on_loopback_only_without_a_dashboard():
    if ray.is_initialized():
        pytest.skip("a Ray instance of another test is up")
    with connected(LOCAL):
        assert ray.util.get_node_ip_address() == "127.0.0.1"
        listening = _listening(_socket_owners(_process_tree(os.getpid())))
        assert {name for _, name in listening} >= {"gcs_server", "raylet"}  # the check sees Ray's daemons
        assert [entry for entry in listening if not _is_loopback(entry[0])] == []
        assert not ray._private.worker.global_worker.node.webui_url  # no dashboard
    assert not ray.is_initialized()
