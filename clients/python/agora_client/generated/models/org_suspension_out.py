from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.admin_organization_out import AdminOrganizationOut


T = TypeVar("T", bound="OrgSuspensionOut")


@_attrs_define
class OrgSuspensionOut:
    """
    Attributes:
        jobs_cancelled (int): Unfinished jobs cancelled and refunded
        jobs_left (int): Jobs running on a payment node, left to its refund flow
        organization (AdminOrganizationOut):
    """

    jobs_cancelled: int
    jobs_left: int
    organization: AdminOrganizationOut
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        jobs_cancelled = self.jobs_cancelled

        jobs_left = self.jobs_left

        organization = self.organization.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "jobsCancelled": jobs_cancelled,
                "jobsLeft": jobs_left,
                "organization": organization,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_organization_out import AdminOrganizationOut

        d = dict(src_dict)
        jobs_cancelled = d.pop("jobsCancelled")

        jobs_left = d.pop("jobsLeft")

        organization = AdminOrganizationOut.from_dict(d.pop("organization"))

        org_suspension_out = cls(
            jobs_cancelled=jobs_cancelled,
            jobs_left=jobs_left,
            organization=organization,
        )

        org_suspension_out.additional_properties = d
        return org_suspension_out

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
