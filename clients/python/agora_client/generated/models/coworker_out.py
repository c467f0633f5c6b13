from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.coworker_status import CoworkerStatus, check_coworker_status

if TYPE_CHECKING:
    from ..models.coworker_out_metadata import CoworkerOutMetadata
    from ..models.price import Price
    from ..models.vendor import Vendor


T = TypeVar("T", bound="CoworkerOut")


@_attrs_define
class CoworkerOut:
    """Read from a ``Coworker`` row.

    Attributes:
        archived_at (datetime.datetime | None):
        base_url (None | str):
        capabilities (list[str]):
        caption (None | str):
        company (None | str):
        company_logo (None | str):
        created_at (datetime.datetime):
        description (None | str):
        email (None | str):
        estimated_duration (int | None):
        id (UUID):
        image (None | str):
        is_new (bool):
        is_shown (bool):
        is_whitelisted (bool):
        metadata (CoworkerOutMetadata | None):
        name (str):
        price (Price): A price in display units: ``credits`` is what the caller pays, fee included.
        priority (int):
        slug (str):
        status (CoworkerStatus): Derived from a coworker's timestamps (the column-less status ``CoworkerOut`` shows).
        updated_at (datetime.datetime):
        url (None | str):
        vendor (Vendor):
        whitelisted_at (datetime.datetime | None):
    """

    archived_at: datetime.datetime | None
    base_url: None | str
    capabilities: list[str]
    caption: None | str
    company: None | str
    company_logo: None | str
    created_at: datetime.datetime
    description: None | str
    email: None | str
    estimated_duration: int | None
    id: UUID
    image: None | str
    is_new: bool
    is_shown: bool
    is_whitelisted: bool
    metadata: CoworkerOutMetadata | None
    name: str
    price: Price
    priority: int
    slug: str
    status: CoworkerStatus
    updated_at: datetime.datetime
    url: None | str
    vendor: Vendor
    whitelisted_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.coworker_out_metadata import CoworkerOutMetadata

        archived_at: None | str
        if isinstance(self.archived_at, datetime.datetime):
            archived_at = self.archived_at.isoformat()
        else:
            archived_at = self.archived_at

        base_url: None | str
        base_url = self.base_url

        capabilities = self.capabilities

        caption: None | str
        caption = self.caption

        company: None | str
        company = self.company

        company_logo: None | str
        company_logo = self.company_logo

        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        email: None | str
        email = self.email

        estimated_duration: int | None
        estimated_duration = self.estimated_duration

        id = str(self.id)

        image: None | str
        image = self.image

        is_new = self.is_new

        is_shown = self.is_shown

        is_whitelisted = self.is_whitelisted

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, CoworkerOutMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        name = self.name

        price = self.price.to_dict()

        priority = self.priority

        slug = self.slug

        status: str = self.status

        updated_at = self.updated_at.isoformat()

        url: None | str
        url = self.url

        vendor = self.vendor.to_dict()

        whitelisted_at: None | str
        if isinstance(self.whitelisted_at, datetime.datetime):
            whitelisted_at = self.whitelisted_at.isoformat()
        else:
            whitelisted_at = self.whitelisted_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "archivedAt": archived_at,
                "baseURL": base_url,
                "capabilities": capabilities,
                "caption": caption,
                "company": company,
                "companyLogo": company_logo,
                "createdAt": created_at,
                "description": description,
                "email": email,
                "estimatedDuration": estimated_duration,
                "id": id,
                "image": image,
                "isNew": is_new,
                "isShown": is_shown,
                "isWhitelisted": is_whitelisted,
                "metadata": metadata,
                "name": name,
                "price": price,
                "priority": priority,
                "slug": slug,
                "status": status,
                "updatedAt": updated_at,
                "url": url,
                "vendor": vendor,
                "whitelistedAt": whitelisted_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.coworker_out_metadata import CoworkerOutMetadata
        from ..models.price import Price
        from ..models.vendor import Vendor

        d = dict(src_dict)

        def _parse_archived_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                archived_at_type_0 = datetime.datetime.fromisoformat(data)

                return archived_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        archived_at = _parse_archived_at(d.pop("archivedAt"))

        def _parse_base_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        base_url = _parse_base_url(d.pop("baseURL"))

        capabilities = cast(list[str], d.pop("capabilities"))

        def _parse_caption(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        caption = _parse_caption(d.pop("caption"))

        def _parse_company(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        company = _parse_company(d.pop("company"))

        def _parse_company_logo(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        company_logo = _parse_company_logo(d.pop("companyLogo"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        def _parse_estimated_duration(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        estimated_duration = _parse_estimated_duration(d.pop("estimatedDuration"))

        id = UUID(d.pop("id"))

        def _parse_image(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        image = _parse_image(d.pop("image"))

        is_new = d.pop("isNew")

        is_shown = d.pop("isShown")

        is_whitelisted = d.pop("isWhitelisted")

        def _parse_metadata(data: object) -> CoworkerOutMetadata | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = CoworkerOutMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CoworkerOutMetadata | None, data)

        metadata = _parse_metadata(d.pop("metadata"))

        name = d.pop("name")

        price = Price.from_dict(d.pop("price"))

        priority = d.pop("priority")

        slug = d.pop("slug")

        status = check_coworker_status(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        vendor = Vendor.from_dict(d.pop("vendor"))

        def _parse_whitelisted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                whitelisted_at_type_0 = datetime.datetime.fromisoformat(data)

                return whitelisted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        whitelisted_at = _parse_whitelisted_at(d.pop("whitelistedAt"))

        coworker_out = cls(
            archived_at=archived_at,
            base_url=base_url,
            capabilities=capabilities,
            caption=caption,
            company=company,
            company_logo=company_logo,
            created_at=created_at,
            description=description,
            email=email,
            estimated_duration=estimated_duration,
            id=id,
            image=image,
            is_new=is_new,
            is_shown=is_shown,
            is_whitelisted=is_whitelisted,
            metadata=metadata,
            name=name,
            price=price,
            priority=priority,
            slug=slug,
            status=status,
            updated_at=updated_at,
            url=url,
            vendor=vendor,
            whitelisted_at=whitelisted_at,
        )

        coworker_out.additional_properties = d
        return coworker_out

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
