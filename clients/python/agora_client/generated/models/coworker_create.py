from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.coworker_create_capabilities_item import (
    CoworkerCreateCapabilitiesItem,
    check_coworker_create_capabilities_item,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.coworker_create_metadata import CoworkerCreateMetadata


T = TypeVar("T", bound="CoworkerCreate")


@_attrs_define
class CoworkerCreate:
    """
    Attributes:
        name (str):
        base_url (None | str | Unset):
        capabilities (list[CoworkerCreateCapabilitiesItem] | Unset):
        caption (None | str | Unset):
        company (None | str | Unset):
        company_logo (None | str | Unset):
        description (None | str | Unset):
        email (None | str | Unset):
        image (None | str | Unset):
        metadata (CoworkerCreateMetadata | None | Unset):
        priority (int | Unset):  Default: 0.
        url (None | str | Unset):
    """

    name: str
    base_url: None | str | Unset = UNSET
    capabilities: list[CoworkerCreateCapabilitiesItem] | Unset = UNSET
    caption: None | str | Unset = UNSET
    company: None | str | Unset = UNSET
    company_logo: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    image: None | str | Unset = UNSET
    metadata: CoworkerCreateMetadata | None | Unset = UNSET
    priority: int | Unset = 0
    url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.coworker_create_metadata import CoworkerCreateMetadata

        name = self.name

        base_url: None | str | Unset
        if isinstance(self.base_url, Unset):
            base_url = UNSET
        else:
            base_url = self.base_url

        capabilities: list[str] | Unset = UNSET
        if not isinstance(self.capabilities, Unset):
            capabilities = []
            for capabilities_item_data in self.capabilities:
                capabilities_item: str = capabilities_item_data
                capabilities.append(capabilities_item)

        caption: None | str | Unset
        if isinstance(self.caption, Unset):
            caption = UNSET
        else:
            caption = self.caption

        company: None | str | Unset
        if isinstance(self.company, Unset):
            company = UNSET
        else:
            company = self.company

        company_logo: None | str | Unset
        if isinstance(self.company_logo, Unset):
            company_logo = UNSET
        else:
            company_logo = self.company_logo

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        image: None | str | Unset
        if isinstance(self.image, Unset):
            image = UNSET
        else:
            image = self.image

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, CoworkerCreateMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        priority = self.priority

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if base_url is not UNSET:
            field_dict["baseURL"] = base_url
        if capabilities is not UNSET:
            field_dict["capabilities"] = capabilities
        if caption is not UNSET:
            field_dict["caption"] = caption
        if company is not UNSET:
            field_dict["company"] = company
        if company_logo is not UNSET:
            field_dict["companyLogo"] = company_logo
        if description is not UNSET:
            field_dict["description"] = description
        if email is not UNSET:
            field_dict["email"] = email
        if image is not UNSET:
            field_dict["image"] = image
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if priority is not UNSET:
            field_dict["priority"] = priority
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.coworker_create_metadata import CoworkerCreateMetadata

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_base_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        base_url = _parse_base_url(d.pop("baseURL", UNSET))

        _capabilities = d.pop("capabilities", UNSET)
        capabilities: list[CoworkerCreateCapabilitiesItem] | Unset = UNSET
        if _capabilities is not UNSET:
            capabilities = []
            for capabilities_item_data in _capabilities:
                capabilities_item = check_coworker_create_capabilities_item(capabilities_item_data)

                capabilities.append(capabilities_item)

        def _parse_caption(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        caption = _parse_caption(d.pop("caption", UNSET))

        def _parse_company(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        company = _parse_company(d.pop("company", UNSET))

        def _parse_company_logo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        company_logo = _parse_company_logo(d.pop("companyLogo", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_image(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        image = _parse_image(d.pop("image", UNSET))

        def _parse_metadata(data: object) -> CoworkerCreateMetadata | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = CoworkerCreateMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CoworkerCreateMetadata | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        priority = d.pop("priority", UNSET)

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        coworker_create = cls(
            name=name,
            base_url=base_url,
            capabilities=capabilities,
            caption=caption,
            company=company,
            company_logo=company_logo,
            description=description,
            email=email,
            image=image,
            metadata=metadata,
            priority=priority,
            url=url,
        )

        return coworker_create
