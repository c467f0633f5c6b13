"""Issue 50.5 across processes: an API process and an ``agora worker`` both export OTLP/HTTP to a
collector on loopback; the worker's dispatcher spans (service ``agora-worker``) belong to the
trace of the API's ``POST /v1/agents/{agentId}/jobs`` span (service ``agora``), through the
traceparent admission stores with the job.

The collector answers as the OpenTelemetry Collector's OTLP/HTTP receiver does for a binary
request (opentelemetry-proto's ``ExportTraceServiceRequest`` in, an empty
``ExportTraceServiceResponse`` with ``Content-Type: application/x-protobuf`` and 200 out)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx2
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from tests.jobs.helpers import echo
from tests.jobs.test_worker_process import worker
from tests.support.agents import LoopbackAgents
from tests.support.server import agora_env, create_user, run_cli, running_server

pytestmark = pytest.mark.process  # real API and worker processes: make prove


class Collected:
    """Spans received, as (service name, span name, trace id hex, attributes)."""

    def __init__(self) -> None:
        self.spans: list[tuple[str, str, str, dict[str, str]]] = []
        self.lock = threading.Lock()

    def add(self, body: bytes) -> None:
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        for resource_spans in request.resource_spans:
            service = next(
                (
                    a.value.string_value
                    for a in resource_spans.resource.attributes
                    if a.key == "service.name"
                ),
                "",
            )
            for scope in resource_spans.scope_spans:
                for span in scope.spans:
                    attributes = {a.key: a.value.string_value for a in span.attributes}
                    with self.lock:
                        self.spans.append((service, span.name, span.trace_id.hex(), attributes))


@contextmanager
def collector() -> Iterator[tuple[str, Collected]]:
    collected = Collected()

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.path == "/v1/traces":
                collected.add(body)
                answer = ExportTraceServiceResponse().SerializeToString()
            else:  # /v1/metrics: accepted, not read here
                answer = b""
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", collected
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_worker_process_joins_the_hire_trace(
    tmp_path: Path, agents_server: LoopbackAgents
) -> None:
    url = agents_server.serve(echo())
    with collector() as (endpoint, collected):
        env = agora_env(
            tmp_path,
            AGORA_DEMO="false",
            AGORA_RUN_DISPATCHER="false",  # only the worker dispatches
            AGORA_STATUS_POLL_INITIAL_SECONDS="0.01",
            AGORA_OTEL_ENDPOINT=endpoint,
            OTEL_BSP_SCHEDULE_DELAY="100",  # export spans every 0.1 s instead of 5 s
        )
        user = create_user(env, "trace@example.com", credits="10")
        agent = json.loads(
            run_cli(
                env,
                "agents",
                "register",
                url,
                "--name",
                "Echo",
                "--price",
                "1",
                "--verify",
                "--json",
            )
        )
        with (
            running_server(env) as base,
            httpx2.Client(base_url=base, headers={"x-api-key": user["apiKey"]}, timeout=10) as http,
            worker(env),
        ):
            created = http.post(
                f"/v1/agents/{agent['agentId']}/jobs", json={"inputData": {"text": "x"}}
            )
            assert created.status_code == 201, created.text
            job_id = created.json()["data"]["id"]
            deadline = time.monotonic() + 30
            while http.get(f"/v1/jobs/{job_id}").json()["data"]["status"] != "COMPLETED":
                assert time.monotonic() < deadline, "the worker did not finish the job in 30 s"
                time.sleep(0.05)
            deadline = time.monotonic() + 15
            while not any(
                name == "agora.dispatch.result" and attributes.get("agora.job_id") == job_id
                for _service, name, _trace, attributes in list(collected.spans)
            ):
                assert time.monotonic() < deadline, "the worker exported no result span in 15 s"
                time.sleep(0.1)
        spans = list(collected.spans)

    [hire] = [
        (service, trace)
        for service, name, trace, _ in spans
        if name == "POST /v1/agents/{agentId}/jobs"
    ]
    assert hire[0] == "agora"
    dispatcher = [
        (service, name)
        for service, name, trace, attributes in spans
        if trace == hire[1] and attributes.get("agora.job_id") == job_id
    ]
    assert {service for service, _ in dispatcher} == {"agora-worker"}
    names = {name for _, name in dispatcher}
    assert {"agora.dispatch.step", "agora.dispatch.agent_call", "agora.dispatch.result"} <= names
    # the worker's own statements are traced too (SQLAlchemy spans of service agora-worker)
    assert any(
        service == "agora-worker" and "db.system" in attributes
        for service, _name, _trace, attributes in spans
    )
