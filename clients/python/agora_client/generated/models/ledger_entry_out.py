from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LedgerEntryOut")


@_attrs_define
class LedgerEntryOut:
    """Read from a ``LedgerEntry`` row.

    Attributes:
        amount (float): Change of the available balance, in credits.
        balance_after (float):
        created_at (datetime.datetime):
        held_change (float): Change of the held amount, in credits.
        id (UUID):
        job_id (None | UUID):
        kind (str): grant | hold | capture | refund | usage | purchase | clawback | settle
        memo (str):
    """

    amount: float
    balance_after: float
    created_at: datetime.datetime
    held_change: float
    id: UUID
    job_id: None | UUID
    kind: str
    memo: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        balance_after = self.balance_after

        created_at = self.created_at.isoformat()

        held_change = self.held_change

        id = str(self.id)

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        kind = self.kind

        memo = self.memo

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "balanceAfter": balance_after,
                "createdAt": created_at,
                "heldChange": held_change,
                "id": id,
                "jobId": job_id,
                "kind": kind,
                "memo": memo,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        balance_after = d.pop("balanceAfter")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        held_change = d.pop("heldChange")

        id = UUID(d.pop("id"))

        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)

                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("jobId"))

        kind = d.pop("kind")

        memo = d.pop("memo")

        ledger_entry_out = cls(
            amount=amount,
            balance_after=balance_after,
            created_at=created_at,
            held_change=held_change,
            id=id,
            job_id=job_id,
            kind=kind,
            memo=memo,
        )

        ledger_entry_out.additional_properties = d
        return ledger_entry_out

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
