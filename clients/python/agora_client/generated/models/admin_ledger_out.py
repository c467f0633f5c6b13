from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AdminLedgerOut")


@_attrs_define
class AdminLedgerOut:
    """
    Attributes:
        amount (float):
        balance_after (float):
        created_at (datetime.datetime):
        kind (str):
        memo (str):
        workspace_id (UUID):
    """

    amount: float
    balance_after: float
    created_at: datetime.datetime
    kind: str
    memo: str
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        balance_after = self.balance_after

        created_at = self.created_at.isoformat()

        kind = self.kind

        memo = self.memo

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "balanceAfter": balance_after,
                "createdAt": created_at,
                "kind": kind,
                "memo": memo,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        balance_after = d.pop("balanceAfter")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        kind = d.pop("kind")

        memo = d.pop("memo")

        workspace_id = UUID(d.pop("workspaceId"))

        admin_ledger_out = cls(
            amount=amount,
            balance_after=balance_after,
            created_at=created_at,
            kind=kind,
            memo=memo,
            workspace_id=workspace_id,
        )

        admin_ledger_out.additional_properties = d
        return admin_ledger_out

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
