"""OpenTelemetry traces and metrics (docs/operations.md, "Traces and metrics"): off by default.

``Telemetry.from_environment(endpoint)`` turns them on when an OTLP endpoint is configured
(``AGORA_OTEL_ENDPOINT``, else the standard ``OTEL_EXPORTER_OTLP_ENDPOINT`` /
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``): a tracer provider exporting spans over OTLP/HTTP in
batches, a meter provider exporting metrics every minute; the composition root instruments the
app (FastAPI: a server span and the HTTP metrics per request) and the engine (SQLAlchemy: a span
per statement) with them. Off, nothing is instrumented and ``span()`` is the API's no-op span:
the SDK is not even imported.

The dispatcher runs a job later, in another process maybe: admission stores the request's W3C
``traceparent`` with the job (``current_traceparent()``), and the dispatcher's spans
(``agora.dispatch.*``, attribute ``agora.job_id``) are children of it, so one hire is one trace.

The providers are this process's (``use()``), not OpenTelemetry's global ones: a test installs
one with an in-memory exporter and removes it after.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from opentelemetry import trace
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

JOB_ID = "agora.job_id"
_PROPAGATOR = TraceContextTextMapPropagator()
_OTLP_ENV = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")


class Telemetry:
    """This process's tracer (and meter) providers, or none (off)."""

    def __init__(self, tracer_provider: Any = None, meter_provider: Any = None) -> None:
        self.tracer_provider = tracer_provider
        self.meter_provider = meter_provider
        self.tracer: trace.Tracer = (
            tracer_provider.get_tracer("agora") if tracer_provider else trace.NoOpTracer()
        )

    @property
    def enabled(self) -> bool:
        return self.tracer_provider is not None

    @classmethod
    def from_environment(cls, endpoint: str, service: str = "agora") -> Telemetry:
        """On with OTLP over HTTP when ``endpoint`` (``AGORA_OTEL_ENDPOINT``, the collector's
        base URL) or the standard OTLP variables are set; else off."""
        if not endpoint and not any(os.environ.get(name) for name in _OTLP_ENV):
            return cls()
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        base = endpoint.rstrip("/")
        resource = Resource.create({"service.name": service})
        tracer_provider = TracerProvider(resource=resource)
        tracer_provider.add_span_processor(
            BatchSpanProcessor(
                OTLPSpanExporter(f"{base}/v1/traces") if base else OTLPSpanExporter()
            )
        )
        exporter = OTLPMetricExporter(f"{base}/v1/metrics") if base else OTLPMetricExporter()
        meter_provider = MeterProvider(
            resource=resource, metric_readers=[PeriodicExportingMetricReader(exporter)]
        )
        return cls(tracer_provider, meter_provider)

    def shutdown(self) -> None:
        for provider in (self.tracer_provider, self.meter_provider):
            if provider is not None:
                provider.shutdown()


_current = Telemetry()


def use(telemetry: Telemetry) -> None:
    """Make ``telemetry`` this process's (the app's lifespan; ``Telemetry()`` turns it off)."""
    global _current
    _current = telemetry


def enabled() -> bool:
    return _current.enabled


def current_traceparent() -> str | None:
    """The W3C ``traceparent`` of the span under way (the request's), or None (off)."""
    if not _current.enabled or not trace.get_current_span().get_span_context().is_valid:
        return None
    carrier: dict[str, str] = {}
    _PROPAGATOR.inject(carrier)
    return carrier.get("traceparent")


@contextmanager
def span(name: str, *, job_id: object = None, traceparent: str | None = None) -> Iterator[Any]:
    """A span of this process's tracer (a no-op when off); a child of ``traceparent`` if given
    (a job's admission), else of the span under way."""
    if not _current.enabled:
        yield trace.INVALID_SPAN
        return
    context = _PROPAGATOR.extract({"traceparent": traceparent}) if traceparent else None
    attributes = {JOB_ID: str(job_id)} if job_id is not None else None
    with _current.tracer.start_as_current_span(
        name, context=context, attributes=attributes
    ) as current:
        yield current


def tracer_provider() -> Any:
    return _current.tracer_provider


def meter_provider() -> Any:
    return _current.meter_provider
