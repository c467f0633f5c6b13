"""Operational endpoints: health, readiness, the OpenAPI document and the offline docs page."""
