from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.share_organization import ShareOrganization
    from ..models.share_user import ShareUser


T = TypeVar("T", bound="ShareOut")


@_attrs_define
class ShareOut:
    """Read from ``jobs.service.ShareView``.

    Attributes:
        created_at (datetime.datetime):
        public (bool): Anyone with the URL may view the job (no credentials).
        recipient_organization (None | ShareOrganization):
        updated (datetime.datetime):
        url (str):
        user (ShareUser): Read from a ``User`` row (the sharer).
    """

    created_at: datetime.datetime
    public: bool
    recipient_organization: None | ShareOrganization
    updated: datetime.datetime
    url: str
    user: ShareUser
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.share_organization import ShareOrganization

        created_at = self.created_at.isoformat()

        public = self.public

        recipient_organization: dict[str, Any] | None
        if isinstance(self.recipient_organization, ShareOrganization):
            recipient_organization = self.recipient_organization.to_dict()
        else:
            recipient_organization = self.recipient_organization

        updated = self.updated.isoformat()

        url = self.url

        user = self.user.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "public": public,
                "recipientOrganization": recipient_organization,
                "updated": updated,
                "url": url,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.share_organization import ShareOrganization
        from ..models.share_user import ShareUser

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        public = d.pop("public")

        def _parse_recipient_organization(data: object) -> None | ShareOrganization:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                recipient_organization_type_1 = ShareOrganization.from_dict(data)

                return recipient_organization_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShareOrganization, data)

        recipient_organization = _parse_recipient_organization(d.pop("recipientOrganization"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        url = d.pop("url")

        user = ShareUser.from_dict(d.pop("user"))

        share_out = cls(
            created_at=created_at,
            public=public,
            recipient_organization=recipient_organization,
            updated=updated,
            url=url,
            user=user,
        )

        share_out.additional_properties = d
        return share_out

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
