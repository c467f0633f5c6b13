"""A real S3-compatible server on loopback for the files tests: moto in server mode
(``moto.server.ThreadedMotoServer``, moto 5.2.5 from PyPI, ``moto[server]`` in the dev
dependencies). It speaks the S3 REST API over HTTP (PutObject, multipart uploads, ranged GetObject,
ListObjectsV2) as boto3 expects; nothing in Agora's code knows it is moto."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import boto3

ACCESS_KEY, SECRET_KEY, REGION = "testing", "testing", "us-east-1"


@dataclass
class S3Server:
    endpoint: str

    @cached_property
    def client(self) -> Any:
        return boto3.session.Session().client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
        )

    def new_bucket(self) -> str:
        name = f"agora-{uuid.uuid4().hex[:12]}"
        self.client.create_bucket(Bucket=name)
        return name

    def settings_update(self, bucket: str, prefix: str = "files") -> dict[str, Any]:
        return {
            "storage_url": f"s3://{bucket}/{prefix}",
            "storage_s3_endpoint": self.endpoint,
            "storage_s3_region": REGION,
            "storage_s3_access_key": ACCESS_KEY,
            "storage_s3_secret_key": SECRET_KEY,
        }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def moto_s3() -> Iterator[S3Server]:
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield S3Server(f"http://127.0.0.1:{port}")
    finally:
        server.stop()
