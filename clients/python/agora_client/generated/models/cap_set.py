from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CapSet")


@_attrs_define
class CapSet:
    """
    Attributes:
        monthly_limit (float | str): Credits per calendar month (UTC).
        project_id (None | Unset | UUID): A project of the organization.
        user_id (None | Unset | UUID): A member of the organization.
    """

    monthly_limit: float | str
    project_id: None | Unset | UUID = UNSET
    user_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        monthly_limit: float | str
        monthly_limit = self.monthly_limit

        project_id: None | str | Unset
        if isinstance(self.project_id, Unset):
            project_id = UNSET
        elif isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        elif isinstance(self.user_id, UUID):
            user_id = str(self.user_id)
        else:
            user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "monthlyLimit": monthly_limit,
            }
        )
        if project_id is not UNSET:
            field_dict["projectId"] = project_id
        if user_id is not UNSET:
            field_dict["userId"] = user_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_monthly_limit(data: object) -> float | str:
            return cast(float | str, data)

        monthly_limit = _parse_monthly_limit(d.pop("monthlyLimit"))

        def _parse_project_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        project_id = _parse_project_id(d.pop("projectId", UNSET))

        def _parse_user_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                user_id_type_0 = UUID(data)

                return user_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        user_id = _parse_user_id(d.pop("userId", UNSET))

        cap_set = cls(
            monthly_limit=monthly_limit,
            project_id=project_id,
            user_id=user_id,
        )

        return cap_set
