from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StuckPaymentOut")


@_attrs_define
class StuckPaymentOut:
    """
    Attributes:
        age_seconds (float):
        can_retry (bool): A retry step exists (a refund the node refused)
        job_id (UUID):
        job_status (str):
        last_error (None | str):
        payment_state (None | str): The node's on-chain state (null: not locked)
        since (datetime.datetime): When the job entered its current payment state
        why (str): refund_stuck | manual_action | no_progress
    """

    age_seconds: float
    can_retry: bool
    job_id: UUID
    job_status: str
    last_error: None | str
    payment_state: None | str
    since: datetime.datetime
    why: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        age_seconds = self.age_seconds

        can_retry = self.can_retry

        job_id = str(self.job_id)

        job_status = self.job_status

        last_error: None | str
        last_error = self.last_error

        payment_state: None | str
        payment_state = self.payment_state

        since = self.since.isoformat()

        why = self.why

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ageSeconds": age_seconds,
                "canRetry": can_retry,
                "jobId": job_id,
                "jobStatus": job_status,
                "lastError": last_error,
                "paymentState": payment_state,
                "since": since,
                "why": why,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        age_seconds = d.pop("ageSeconds")

        can_retry = d.pop("canRetry")

        job_id = UUID(d.pop("jobId"))

        job_status = d.pop("jobStatus")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        def _parse_payment_state(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        payment_state = _parse_payment_state(d.pop("paymentState"))

        since = datetime.datetime.fromisoformat(d.pop("since"))

        why = d.pop("why")

        stuck_payment_out = cls(
            age_seconds=age_seconds,
            can_retry=can_retry,
            job_id=job_id,
            job_status=job_status,
            last_error=last_error,
            payment_state=payment_state,
            since=since,
            why=why,
        )

        stuck_payment_out.additional_properties = d
        return stuck_payment_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
