from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.admin_cap_out import AdminCapOut
    from ..models.admin_job_out import AdminJobOut
    from ..models.admin_member_out import AdminMemberOut
    from ..models.admin_organization_out import AdminOrganizationOut
    from ..models.admin_workspace_out import AdminWorkspaceOut
    from ..models.audit_event_out import AuditEventOut


T = TypeVar("T", bound="AdminOrganizationDetailOut")


@_attrs_define
class AdminOrganizationDetailOut:
    """
    Attributes:
        caps (list[AdminCapOut]):
        events (list[AuditEventOut]): Its latest audit rows
        jobs (list[AdminJobOut]):
        members (list[AdminMemberOut]):
        organization (AdminOrganizationOut):
        workspace (AdminWorkspaceOut | None):
    """

    caps: list[AdminCapOut]
    events: list[AuditEventOut]
    jobs: list[AdminJobOut]
    members: list[AdminMemberOut]
    organization: AdminOrganizationOut
    workspace: AdminWorkspaceOut | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.admin_workspace_out import AdminWorkspaceOut

        caps = []
        for caps_item_data in self.caps:
            caps_item = caps_item_data.to_dict()
            caps.append(caps_item)

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        jobs = []
        for jobs_item_data in self.jobs:
            jobs_item = jobs_item_data.to_dict()
            jobs.append(jobs_item)

        members = []
        for members_item_data in self.members:
            members_item = members_item_data.to_dict()
            members.append(members_item)

        organization = self.organization.to_dict()

        workspace: dict[str, Any] | None
        if isinstance(self.workspace, AdminWorkspaceOut):
            workspace = self.workspace.to_dict()
        else:
            workspace = self.workspace

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "caps": caps,
                "events": events,
                "jobs": jobs,
                "members": members,
                "organization": organization,
                "workspace": workspace,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_cap_out import AdminCapOut
        from ..models.admin_job_out import AdminJobOut
        from ..models.admin_member_out import AdminMemberOut
        from ..models.admin_organization_out import AdminOrganizationOut
        from ..models.admin_workspace_out import AdminWorkspaceOut
        from ..models.audit_event_out import AuditEventOut

        d = dict(src_dict)
        caps = []
        _caps = d.pop("caps")
        for caps_item_data in _caps:
            caps_item = AdminCapOut.from_dict(caps_item_data)

            caps.append(caps_item)

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = AuditEventOut.from_dict(events_item_data)

            events.append(events_item)

        jobs = []
        _jobs = d.pop("jobs")
        for jobs_item_data in _jobs:
            jobs_item = AdminJobOut.from_dict(jobs_item_data)

            jobs.append(jobs_item)

        members = []
        _members = d.pop("members")
        for members_item_data in _members:
            members_item = AdminMemberOut.from_dict(members_item_data)

            members.append(members_item)

        organization = AdminOrganizationOut.from_dict(d.pop("organization"))

        def _parse_workspace(data: object) -> AdminWorkspaceOut | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                workspace_type_1 = AdminWorkspaceOut.from_dict(data)

                return workspace_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AdminWorkspaceOut | None, data)

        workspace = _parse_workspace(d.pop("workspace"))

        admin_organization_detail_out = cls(
            caps=caps,
            events=events,
            jobs=jobs,
            members=members,
            organization=organization,
            workspace=workspace,
        )

        admin_organization_detail_out.additional_properties = d
        return admin_organization_detail_out

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
