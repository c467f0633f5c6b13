"""Loopback listeners for outbound-policy tests: one that counts every TCP connection it accepts
(proof that nothing reached it), one that answers every HTTP request with a redirect."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Counter:
    url: str
    port: int
    connections: int = 0


@contextmanager
def counting_listener(host: str = "127.0.0.1") -> Iterator[Counter]:
    """Accepts connections, counts them, closes them at once (bounded: 1 s accept timeout)."""
    sock = socket.socket()
    sock.bind((host, 0))
    sock.listen(16)
    sock.settimeout(0.2)
    port = int(sock.getsockname()[1])
    counter = Counter(url=f"http://{host}:{port}", port=port)
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            counter.connections += 1
            conn.close()

    thread = threading.Thread(target=run, name="counting-listener", daemon=True)
    thread.start()
    try:
        yield counter
    finally:
        stop.set()
        thread.join(timeout=5)
        sock.close()


@contextmanager
def redirecting_server(target: str, host: str = "127.0.0.1") -> Iterator[Counter]:
    """Answers every GET with ``302 Location: <target><path>``; counts the requests."""
    counter = Counter(url="", port=0)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            counter.connections += 1
            self.send_response(302)
            self.send_header("Location", f"{target}{self.path}")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            return

    server = ThreadingHTTPServer((host, 0), Handler)
    counter.port = int(server.server_address[1])
    counter.url = f"http://{host}:{counter.port}"
    thread = threading.Thread(target=server.serve_forever, name="redirector", daemon=True)
    thread.start()
    try:
        yield counter
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()
