from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.admin_user_out import AdminUserOut


T = TypeVar("T", bound="SuspensionOut")


@_attrs_define
class SuspensionOut:
    """
    Attributes:
        jobs_cancelled (int): Unfinished jobs cancelled and refunded
        jobs_left (int): Jobs running on a payment node, left to its refund flow
        keys (int): API keys revoked
        sessions (int): Sessions revoked
        user (AdminUserOut):
    """

    jobs_cancelled: int
    jobs_left: int
    keys: int
    sessions: int
    user: AdminUserOut
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        jobs_cancelled = self.jobs_cancelled

        jobs_left = self.jobs_left

        keys = self.keys

        sessions = self.sessions

        user = self.user.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "jobsCancelled": jobs_cancelled,
                "jobsLeft": jobs_left,
                "keys": keys,
                "sessions": sessions,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_user_out import AdminUserOut

        d = dict(src_dict)
        jobs_cancelled = d.pop("jobsCancelled")

        jobs_left = d.pop("jobsLeft")

        keys = d.pop("keys")

        sessions = d.pop("sessions")

        user = AdminUserOut.from_dict(d.pop("user"))

        suspension_out = cls(
            jobs_cancelled=jobs_cancelled,
            jobs_left=jobs_left,
            keys=keys,
            sessions=sessions,
            user=user,
        )

        suspension_out.additional_properties = d
        return suspension_out

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
