from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GrantOut")


@_attrs_define
class GrantOut:
    """
    Attributes:
        amount (float):
        balance (float):
        user_id (UUID):
        workspace_id (UUID):
    """

    amount: float
    balance: float
    user_id: UUID
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        balance = self.balance

        user_id = str(self.user_id)

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "balance": balance,
                "userId": user_id,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        balance = d.pop("balance")

        user_id = UUID(d.pop("userId"))

        workspace_id = UUID(d.pop("workspaceId"))

        grant_out = cls(
            amount=amount,
            balance=balance,
            user_id=user_id,
            workspace_id=workspace_id,
        )

        grant_out.additional_properties = d
        return grant_out

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
