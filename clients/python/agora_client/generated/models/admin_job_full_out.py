from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AdminJobFullOut")


@_attrs_define
class AdminJobFullOut:
    """
    Attributes:
        agent_id (UUID):
        agent_job_id (None | str):
        agent_job_status (None | str):
        agent_name (str):
        attempts (int):
        completed_at (datetime.datetime | None):
        created_at (datetime.datetime):
        deadline_at (datetime.datetime | None):
        dispatch_state (str):
        error (None | str):
        fee (float):
        id (UUID):
        job_type (str):
        name (str):
        next_attempt_at (datetime.datetime | None):
        organization_id (None | UUID):
        price (float):
        refund (float):
        started_at (datetime.datetime | None):
        status (str):
        user_id (UUID):
        workspace_id (UUID):
    """

    agent_id: UUID
    agent_job_id: None | str
    agent_job_status: None | str
    agent_name: str
    attempts: int
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    deadline_at: datetime.datetime | None
    dispatch_state: str
    error: None | str
    fee: float
    id: UUID
    job_type: str
    name: str
    next_attempt_at: datetime.datetime | None
    organization_id: None | UUID
    price: float
    refund: float
    started_at: datetime.datetime | None
    status: str
    user_id: UUID
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        agent_job_id: None | str
        agent_job_id = self.agent_job_id

        agent_job_status: None | str
        agent_job_status = self.agent_job_status

        agent_name = self.agent_name

        attempts = self.attempts

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        deadline_at: None | str
        if isinstance(self.deadline_at, datetime.datetime):
            deadline_at = self.deadline_at.isoformat()
        else:
            deadline_at = self.deadline_at

        dispatch_state = self.dispatch_state

        error: None | str
        error = self.error

        fee = self.fee

        id = str(self.id)

        job_type = self.job_type

        name = self.name

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        organization_id: None | str
        if isinstance(self.organization_id, UUID):
            organization_id = str(self.organization_id)
        else:
            organization_id = self.organization_id

        price = self.price

        refund = self.refund

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status = self.status

        user_id = str(self.user_id)

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "agentJobId": agent_job_id,
                "agentJobStatus": agent_job_status,
                "agentName": agent_name,
                "attempts": attempts,
                "completedAt": completed_at,
                "createdAt": created_at,
                "deadlineAt": deadline_at,
                "dispatchState": dispatch_state,
                "error": error,
                "fee": fee,
                "id": id,
                "jobType": job_type,
                "name": name,
                "nextAttemptAt": next_attempt_at,
                "organizationId": organization_id,
                "price": price,
                "refund": refund,
                "startedAt": started_at,
                "status": status,
                "userId": user_id,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        def _parse_agent_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_job_id = _parse_agent_job_id(d.pop("agentJobId"))

        def _parse_agent_job_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_job_status = _parse_agent_job_status(d.pop("agentJobStatus"))

        agent_name = d.pop("agentName")

        attempts = d.pop("attempts")

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_deadline_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_at_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline_at = _parse_deadline_at(d.pop("deadlineAt"))

        dispatch_state = d.pop("dispatchState")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        fee = d.pop("fee")

        id = UUID(d.pop("id"))

        job_type = d.pop("jobType")

        name = d.pop("name")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

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

        price = d.pop("price")

        refund = d.pop("refund")

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        status = d.pop("status")

        user_id = UUID(d.pop("userId"))

        workspace_id = UUID(d.pop("workspaceId"))

        admin_job_full_out = cls(
            agent_id=agent_id,
            agent_job_id=agent_job_id,
            agent_job_status=agent_job_status,
            agent_name=agent_name,
            attempts=attempts,
            completed_at=completed_at,
            created_at=created_at,
            deadline_at=deadline_at,
            dispatch_state=dispatch_state,
            error=error,
            fee=fee,
            id=id,
            job_type=job_type,
            name=name,
            next_attempt_at=next_attempt_at,
            organization_id=organization_id,
            price=price,
            refund=refund,
            started_at=started_at,
            status=status,
            user_id=user_id,
            workspace_id=workspace_id,
        )

        admin_job_full_out.additional_properties = d
        return admin_job_full_out

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
