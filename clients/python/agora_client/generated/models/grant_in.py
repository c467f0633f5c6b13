from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GrantIn")


@_attrs_define
class GrantIn:
    """
    Attributes:
        amount (float | int | str): Credits, in display units
        reason (str): Why (e.g. a ticket)
        workspace_id (None | str | Unset): Default: the user's personal workspace
    """

    amount: float | int | str
    reason: str
    workspace_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount: float | int | str
        amount = self.amount

        reason = self.reason

        workspace_id: None | str | Unset
        if isinstance(self.workspace_id, Unset):
            workspace_id = UNSET
        else:
            workspace_id = self.workspace_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "reason": reason,
            }
        )
        if workspace_id is not UNSET:
            field_dict["workspaceId"] = workspace_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_amount(data: object) -> float | int | str:
            return cast(float | int | str, data)

        amount = _parse_amount(d.pop("amount"))

        reason = d.pop("reason")

        def _parse_workspace_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        workspace_id = _parse_workspace_id(d.pop("workspaceId", UNSET))

        grant_in = cls(
            amount=amount,
            reason=reason,
            workspace_id=workspace_id,
        )

        return grant_in
