from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ledger_entry_out import LedgerEntryOut


T = TypeVar("T", bound="CreditsOut")


@_attrs_define
class CreditsOut:
    """Read from ``credits.service.Account``.

    Attributes:
        balance (float): Available credits.
        entries (list[LedgerEntryOut]): Most recent ledger entries, newest first.
        held (float): Credits held by unfinished jobs.
        workspace_id (UUID): The credit account: the current workspace.
    """

    balance: float
    entries: list[LedgerEntryOut]
    held: float
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        balance = self.balance

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        held = self.held

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "balance": balance,
                "entries": entries,
                "held": held,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ledger_entry_out import LedgerEntryOut

        d = dict(src_dict)
        balance = d.pop("balance")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = LedgerEntryOut.from_dict(entries_item_data)

            entries.append(entries_item)

        held = d.pop("held")

        workspace_id = UUID(d.pop("workspaceId"))

        credits_out = cls(
            balance=balance,
            entries=entries,
            held=held,
            workspace_id=workspace_id,
        )

        credits_out.additional_properties = d
        return credits_out

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
