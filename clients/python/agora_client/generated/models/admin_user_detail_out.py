from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.admin_job_out import AdminJobOut
    from ..models.admin_key_out import AdminKeyOut
    from ..models.admin_ledger_out import AdminLedgerOut
    from ..models.admin_session_out import AdminSessionOut
    from ..models.admin_user_out import AdminUserOut
    from ..models.admin_workspace_out import AdminWorkspaceOut


T = TypeVar("T", bound="AdminUserDetailOut")


@_attrs_define
class AdminUserDetailOut:
    """
    Attributes:
        jobs (list[AdminJobOut]):
        keys (list[AdminKeyOut]):
        ledger (list[AdminLedgerOut]):
        sessions (list[AdminSessionOut]):
        user (AdminUserOut):
        workspaces (list[AdminWorkspaceOut]):
    """

    jobs: list[AdminJobOut]
    keys: list[AdminKeyOut]
    ledger: list[AdminLedgerOut]
    sessions: list[AdminSessionOut]
    user: AdminUserOut
    workspaces: list[AdminWorkspaceOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        jobs = []
        for jobs_item_data in self.jobs:
            jobs_item = jobs_item_data.to_dict()
            jobs.append(jobs_item)

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        ledger = []
        for ledger_item_data in self.ledger:
            ledger_item = ledger_item_data.to_dict()
            ledger.append(ledger_item)

        sessions = []
        for sessions_item_data in self.sessions:
            sessions_item = sessions_item_data.to_dict()
            sessions.append(sessions_item)

        user = self.user.to_dict()

        workspaces = []
        for workspaces_item_data in self.workspaces:
            workspaces_item = workspaces_item_data.to_dict()
            workspaces.append(workspaces_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "jobs": jobs,
                "keys": keys,
                "ledger": ledger,
                "sessions": sessions,
                "user": user,
                "workspaces": workspaces,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_job_out import AdminJobOut
        from ..models.admin_key_out import AdminKeyOut
        from ..models.admin_ledger_out import AdminLedgerOut
        from ..models.admin_session_out import AdminSessionOut
        from ..models.admin_user_out import AdminUserOut
        from ..models.admin_workspace_out import AdminWorkspaceOut

        d = dict(src_dict)
        jobs = []
        _jobs = d.pop("jobs")
        for jobs_item_data in _jobs:
            jobs_item = AdminJobOut.from_dict(jobs_item_data)

            jobs.append(jobs_item)

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = AdminKeyOut.from_dict(keys_item_data)

            keys.append(keys_item)

        ledger = []
        _ledger = d.pop("ledger")
        for ledger_item_data in _ledger:
            ledger_item = AdminLedgerOut.from_dict(ledger_item_data)

            ledger.append(ledger_item)

        sessions = []
        _sessions = d.pop("sessions")
        for sessions_item_data in _sessions:
            sessions_item = AdminSessionOut.from_dict(sessions_item_data)

            sessions.append(sessions_item)

        user = AdminUserOut.from_dict(d.pop("user"))

        workspaces = []
        _workspaces = d.pop("workspaces")
        for workspaces_item_data in _workspaces:
            workspaces_item = AdminWorkspaceOut.from_dict(workspaces_item_data)

            workspaces.append(workspaces_item)

        admin_user_detail_out = cls(
            jobs=jobs,
            keys=keys,
            ledger=ledger,
            sessions=sessions,
            user=user,
            workspaces=workspaces,
        )

        admin_user_detail_out.additional_properties = d
        return admin_user_detail_out

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
