from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UsageOut")


@_attrs_define
class UsageOut:
    """Read from a ``CoworkerUsage`` row.

    Attributes:
        coworker_id (UUID):
        created_at (datetime.datetime):
        credits_ (float):
        id (UUID):
        idempotency_key (str):
        organization_id (None | UUID):
        reference_id (None | str):
        task_id (None | UUID):
        transaction_id (None | UUID):
        updated_at (datetime.datetime):
        user_id (UUID):
    """

    coworker_id: UUID
    created_at: datetime.datetime
    credits_: float
    id: UUID
    idempotency_key: str
    organization_id: None | UUID
    reference_id: None | str
    task_id: None | UUID
    transaction_id: None | UUID
    updated_at: datetime.datetime
    user_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        coworker_id = str(self.coworker_id)

        created_at = self.created_at.isoformat()

        credits_ = self.credits_

        id = str(self.id)

        idempotency_key = self.idempotency_key

        organization_id: None | str
        if isinstance(self.organization_id, UUID):
            organization_id = str(self.organization_id)
        else:
            organization_id = self.organization_id

        reference_id: None | str
        reference_id = self.reference_id

        task_id: None | str
        if isinstance(self.task_id, UUID):
            task_id = str(self.task_id)
        else:
            task_id = self.task_id

        transaction_id: None | str
        if isinstance(self.transaction_id, UUID):
            transaction_id = str(self.transaction_id)
        else:
            transaction_id = self.transaction_id

        updated_at = self.updated_at.isoformat()

        user_id = str(self.user_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "coworkerId": coworker_id,
                "createdAt": created_at,
                "credits": credits_,
                "id": id,
                "idempotencyKey": idempotency_key,
                "organizationId": organization_id,
                "referenceId": reference_id,
                "taskId": task_id,
                "transactionId": transaction_id,
                "updatedAt": updated_at,
                "userId": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        coworker_id = UUID(d.pop("coworkerId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        credits_ = d.pop("credits")

        id = UUID(d.pop("id"))

        idempotency_key = d.pop("idempotencyKey")

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

        def _parse_reference_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference_id = _parse_reference_id(d.pop("referenceId"))

        def _parse_task_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                task_id_type_0 = UUID(data)

                return task_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        task_id = _parse_task_id(d.pop("taskId"))

        def _parse_transaction_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transaction_id_type_0 = UUID(data)

                return transaction_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        transaction_id = _parse_transaction_id(d.pop("transactionId"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        user_id = UUID(d.pop("userId"))

        usage_out = cls(
            coworker_id=coworker_id,
            created_at=created_at,
            credits_=credits_,
            id=id,
            idempotency_key=idempotency_key,
            organization_id=organization_id,
            reference_id=reference_id,
            task_id=task_id,
            transaction_id=transaction_id,
            updated_at=updated_at,
            user_id=user_id,
        )

        usage_out.additional_properties = d
        return usage_out

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
