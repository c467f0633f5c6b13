"""PgBouncer (Debian's ``/usr/sbin/pgbouncer``) in transaction mode in front of the test
PostgreSQL, on a random loopback port: what a deployment behind PgBouncer looks like
(docs/operations.md, "Running at scale")."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import make_url

from tests.support.server import free_port, port_listens

PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


def available() -> bool:
    return os.access(PGBOUNCER, os.X_OK)


@contextmanager
def pgbouncer(postgres_url: str, *, pool_size: int = 20) -> Iterator[int]:
    """Run PgBouncer (transaction pooling, ``pool_size`` server connections per database and
    user) in front of ``postgres_url``'s server; yield its port; stop it (always). Its files are
    in a folder of its own (as root it runs as ``nobody``, who cannot enter pytest's)."""
    url = make_url(postgres_url)
    user = url.username or "postgres"
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="agora-pgbouncer-"))
    (folder / "userlist.txt").write_text(f'"{user}" ""\n')
    config = folder / "pgbouncer.ini"
    config.write_text(
        "\n".join(
            [
                "[databases]",
                f"* = host={url.host or '127.0.0.1'} port={url.port or 5432}",
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                f"listen_port = {port}",
                "unix_socket_dir =",
                "auth_type = trust",
                f"auth_file = {folder / 'userlist.txt'}",
                "pool_mode = transaction",
                f"default_pool_size = {pool_size}",
                "max_client_conn = 2000",
                "max_db_connections = 0",
                "server_lifetime = 3600",
                "ignore_startup_parameters = extra_float_digits",
                f"logfile = {folder / 'pgbouncer.log'}",
                f"pidfile = {folder / 'pgbouncer.pid'}",
                "",
            ]
        )
    )
    command = [PGBOUNCER, "-q", str(config)]
    if os.geteuid() == 0:  # PgBouncer refuses to run as root
        nobody = pwd.getpwnam("nobody")
        for path in (folder, *folder.iterdir()):
            os.chown(path, nobody.pw_uid, nobody.pw_gid)
        command[1:1] = ["-u", "nobody"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            if process.poll() is not None:
                err = process.stderr.read().decode() if process.stderr else ""
                log = folder / "pgbouncer.log"
                raise AssertionError(
                    f"pgbouncer exited: {err} {log.read_text() if log.exists() else ''}"
                )
            if port_listens(port):
                break
            if time.monotonic() > deadline:
                raise AssertionError("pgbouncer did not listen within 20 s")
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        shutil.rmtree(folder, ignore_errors=True)


def through(postgres_url: str, port: int) -> str:
    """``postgres_url`` with PgBouncer's address instead of the server's."""
    return make_url(postgres_url).set(host="127.0.0.1", port=port).render_as_string(False)
