from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.audit_event_out_details import AuditEventOutDetails


T = TypeVar("T", bound="AuditEventOut")


@_attrs_define
class AuditEventOut:
    """
    Attributes:
        action (str):
        actor_id (None | UUID):
        actor_key_id (None | UUID):
        actor_kind (str):
        client_address (str):
        created_at (datetime.datetime):
        details (AuditEventOutDetails):
        id (UUID):
        organization_id (None | UUID):
        request_id (str):
        target_id (str):
        target_kind (str):
        workspace_id (None | UUID):
    """

    action: str
    actor_id: None | UUID
    actor_key_id: None | UUID
    actor_kind: str
    client_address: str
    created_at: datetime.datetime
    details: AuditEventOutDetails
    id: UUID
    organization_id: None | UUID
    request_id: str
    target_id: str
    target_kind: str
    workspace_id: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        actor_id: None | str
        if isinstance(self.actor_id, UUID):
            actor_id = str(self.actor_id)
        else:
            actor_id = self.actor_id

        actor_key_id: None | str
        if isinstance(self.actor_key_id, UUID):
            actor_key_id = str(self.actor_key_id)
        else:
            actor_key_id = self.actor_key_id

        actor_kind = self.actor_kind

        client_address = self.client_address

        created_at = self.created_at.isoformat()

        details = self.details.to_dict()

        id = str(self.id)

        organization_id: None | str
        if isinstance(self.organization_id, UUID):
            organization_id = str(self.organization_id)
        else:
            organization_id = self.organization_id

        request_id = self.request_id

        target_id = self.target_id

        target_kind = self.target_kind

        workspace_id: None | str
        if isinstance(self.workspace_id, UUID):
            workspace_id = str(self.workspace_id)
        else:
            workspace_id = self.workspace_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "actorId": actor_id,
                "actorKeyId": actor_key_id,
                "actorKind": actor_kind,
                "clientAddress": client_address,
                "createdAt": created_at,
                "details": details,
                "id": id,
                "organizationId": organization_id,
                "requestId": request_id,
                "targetId": target_id,
                "targetKind": target_kind,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.audit_event_out_details import AuditEventOutDetails

        d = dict(src_dict)
        action = d.pop("action")

        def _parse_actor_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                actor_id_type_0 = UUID(data)

                return actor_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        actor_id = _parse_actor_id(d.pop("actorId"))

        def _parse_actor_key_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                actor_key_id_type_0 = UUID(data)

                return actor_key_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        actor_key_id = _parse_actor_key_id(d.pop("actorKeyId"))

        actor_kind = d.pop("actorKind")

        client_address = d.pop("clientAddress")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        details = AuditEventOutDetails.from_dict(d.pop("details"))

        id = UUID(d.pop("id"))

        def _parse_organization_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                organization_id_type_0 = UUID(data)

                return organization_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        organization_id = _parse_organization_id(d.pop("organizationId"))

        request_id = d.pop("requestId")

        target_id = d.pop("targetId")

        target_kind = d.pop("targetKind")

        def _parse_workspace_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                workspace_id_type_0 = UUID(data)

                return workspace_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        workspace_id = _parse_workspace_id(d.pop("workspaceId"))

        audit_event_out = cls(
            action=action,
            actor_id=actor_id,
            actor_key_id=actor_key_id,
            actor_kind=actor_kind,
            client_address=client_address,
            created_at=created_at,
            details=details,
            id=id,
            organization_id=organization_id,
            request_id=request_id,
            target_id=target_id,
            target_kind=target_kind,
            workspace_id=workspace_id,
        )

        audit_event_out.additional_properties = d
        return audit_event_out

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
