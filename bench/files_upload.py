"""Uploads are streamed, never buffered whole (issue 33): a 2 GiB upload to a real server is
refused at the per-file limit while the server's peak RSS stays flat.

``.venv/bin/python -m bench.files_upload [--gib 2] [--limit-mib 100]`` starts ``uvicorn`` with
the app factory (SQLite in a temporary directory, local-directory storage), creates a user with
the CLI, and sends, each from a generator of 1 MiB chunks (the client holds one chunk at a time):

1. ``--gib`` GiB chunked (no Content-Length): the server reads and stores the stream until the
   file passes the limit, then answers 413;
2. the same size with a declared Content-Length: refused by the request's layer before reading;
3. a file just under the limit: stored (201).

After each it prints the server process's peak RSS (``VmHWM`` in ``/proc/<pid>/status``), which
stays at its idle level plus a few MiB: nothing holds a whole file in memory.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import h11
import httpx2
from tests.support.server import create_user, free_port, running_server

from bench.common import server_env

MIB = 1024 * 1024


def server_pid(port: int) -> int:
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"uvicorn" in cmd and str(port).encode() in cmd:
            return int(proc.name)
    raise RuntimeError("server process not found")


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _head(boundary: str) -> bytes:
    return (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n'
    ).encode()


def _tail(boundary: str) -> bytes:
    return f"\r\n--{boundary}--\r\n".encode()


def multipart(total: int, boundary: str, sent: list[int]) -> AsyncIterator[bytes]:
    async def body() -> AsyncIterator[bytes]:
        yield _head(boundary)
        chunk = b"x" * MIB
        left = total
        while left > 0:
            piece = chunk if left >= MIB else chunk[:left]
            left -= len(piece)
            sent[0] += len(piece)
            yield piece
        yield _tail(boundary)

    return body()


async def send(base: str, key: str, total: int, *, declare: bool) -> tuple[str, int, float]:
    boundary = "benchboundary1234"
    sent = [0]
    headers = {"x-api-key": key, "content-type": f"multipart/form-data; boundary={boundary}"}
    if declare:
        headers["content-length"] = str(len(_head(boundary)) + total + len(_tail(boundary)))
    started = time.perf_counter()
    async with httpx2.AsyncClient(timeout=600) as client:
        try:
            answer = await client.post(
                f"{base}/v1/files", headers=headers, content=multipart(total, boundary, sent)
            )
            outcome = str(answer.status_code)
        except (httpx2.TransportError, h11.LocalProtocolError) as exc:  # answered, closed
            outcome = f"connection closed ({type(exc).__name__})"
    return outcome, sent[0], time.perf_counter() - started


async def main(gib: float, limit_mib: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        env = server_env(
            data,
            AGORA_DEMO="false",
            AGORA_FILES_MAX_BYTES=str(limit_mib * MIB),
            AGORA_FILES_WORKSPACE_QUOTA_BYTES=str(8 * 1024 * MIB),
        )
        user = create_user(env, "bench@example.com")
        port = free_port()
        with running_server(env, port=port, startup_seconds=300) as base:
            pid = server_pid(port)
            ok, _, _ = await send(base, user["apiKey"], 10_000, declare=False)
            assert ok == "201", ok
            print(f"server pid {pid}; idle peak RSS {peak_rss_mib(pid):.1f} MiB")
            total = int(gib * 1024 * MIB)
            for label, size, declare in (
                (f"{gib:g} GiB chunked", total, False),
                (f"{gib:g} GiB declared", total, True),
                (f"{limit_mib - 1} MiB (under the limit)", (limit_mib - 1) * MIB, False),
            ):
                outcome, sent, seconds = await send(base, user["apiKey"], size, declare=declare)
                print(
                    f"{label:>28}: {outcome:>40}  client sent {sent / MIB:8.1f} MiB in "
                    f"{seconds:6.2f} s  server peak RSS {peak_rss_mib(pid):.1f} MiB"
                )
            stored = sum(p.stat().st_size for p in (data / "files").rglob("*") if p.is_file())
            print(f"stored on disk: {stored / MIB:.1f} MiB (the warm-up and the accepted file)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--gib", type=float, default=2.0)
    parser.add_argument("--limit-mib", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(main(args.gib, args.limit_mib))
