from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.s3 import S3Server, moto_s3


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    with moto_s3() as server:
        yield server
