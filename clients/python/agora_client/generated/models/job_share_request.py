from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobShareRequest")


@_attrs_define
class JobShareRequest:
    """Share the job: a public link (default) and/or a recipient organization.

    Attributes:
        public (bool | Unset): Anyone with the link may view the job. Default: True.
        recipient_organization_id (None | str | Unset):
        recipient_organization_slug (None | str | Unset):
    """

    public: bool | Unset = True
    recipient_organization_id: None | str | Unset = UNSET
    recipient_organization_slug: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        public = self.public

        recipient_organization_id: None | str | Unset
        if isinstance(self.recipient_organization_id, Unset):
            recipient_organization_id = UNSET
        else:
            recipient_organization_id = self.recipient_organization_id

        recipient_organization_slug: None | str | Unset
        if isinstance(self.recipient_organization_slug, Unset):
            recipient_organization_slug = UNSET
        else:
            recipient_organization_slug = self.recipient_organization_slug

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if public is not UNSET:
            field_dict["public"] = public
        if recipient_organization_id is not UNSET:
            field_dict["recipientOrganizationId"] = recipient_organization_id
        if recipient_organization_slug is not UNSET:
            field_dict["recipientOrganizationSlug"] = recipient_organization_slug

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        public = d.pop("public", UNSET)

        def _parse_recipient_organization_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recipient_organization_id = _parse_recipient_organization_id(
            d.pop("recipientOrganizationId", UNSET)
        )

        def _parse_recipient_organization_slug(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recipient_organization_slug = _parse_recipient_organization_slug(
            d.pop("recipientOrganizationSlug", UNSET)
        )

        job_share_request = cls(
            public=public,
            recipient_organization_id=recipient_organization_id,
            recipient_organization_slug=recipient_organization_slug,
        )

        return job_share_request
