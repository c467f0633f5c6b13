from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.author_out import AuthorOut
    from ..models.example_output_out import ExampleOutputOut
    from ..models.legal_out import LegalOut
    from ..models.price_out import PriceOut
    from ..models.published_out import PublishedOut
    from ..models.review_out import ReviewOut


T = TypeVar("T", bound="DeveloperAgentOut")


@_attrs_define
class DeveloperAgentOut:
    """
    Attributes:
        agent_identifier (None | str):
        author (AuthorOut | None):
        base_url (str):
        categories (list[str]):
        created_at (datetime.datetime):
        description (str):
        example_outputs (list[ExampleOutputOut]):
        id (UUID):
        image (None | str):
        legal (LegalOut | None):
        name (str):
        price (PriceOut):
        pricing_type (str):
        published (PublishedOut): What the catalogue shows: the submission with the admin's overrides applied.
        review (ReviewOut):
        source (str):
        status (str):
        tags (list[str]):
        updated_at (datetime.datetime):
        withdrawn_at (datetime.datetime | None):
    """

    agent_identifier: None | str
    author: AuthorOut | None
    base_url: str
    categories: list[str]
    created_at: datetime.datetime
    description: str
    example_outputs: list[ExampleOutputOut]
    id: UUID
    image: None | str
    legal: LegalOut | None
    name: str
    price: PriceOut
    pricing_type: str
    published: PublishedOut
    review: ReviewOut
    source: str
    status: str
    tags: list[str]
    updated_at: datetime.datetime
    withdrawn_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.author_out import AuthorOut
        from ..models.legal_out import LegalOut

        agent_identifier: None | str
        agent_identifier = self.agent_identifier

        author: dict[str, Any] | None
        if isinstance(self.author, AuthorOut):
            author = self.author.to_dict()
        else:
            author = self.author

        base_url = self.base_url

        categories = self.categories

        created_at = self.created_at.isoformat()

        description = self.description

        example_outputs = []
        for example_outputs_item_data in self.example_outputs:
            example_outputs_item = example_outputs_item_data.to_dict()
            example_outputs.append(example_outputs_item)

        id = str(self.id)

        image: None | str
        image = self.image

        legal: dict[str, Any] | None
        if isinstance(self.legal, LegalOut):
            legal = self.legal.to_dict()
        else:
            legal = self.legal

        name = self.name

        price = self.price.to_dict()

        pricing_type = self.pricing_type

        published = self.published.to_dict()

        review = self.review.to_dict()

        source = self.source

        status = self.status

        tags = self.tags

        updated_at = self.updated_at.isoformat()

        withdrawn_at: None | str
        if isinstance(self.withdrawn_at, datetime.datetime):
            withdrawn_at = self.withdrawn_at.isoformat()
        else:
            withdrawn_at = self.withdrawn_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentIdentifier": agent_identifier,
                "author": author,
                "baseUrl": base_url,
                "categories": categories,
                "createdAt": created_at,
                "description": description,
                "exampleOutputs": example_outputs,
                "id": id,
                "image": image,
                "legal": legal,
                "name": name,
                "price": price,
                "pricingType": pricing_type,
                "published": published,
                "review": review,
                "source": source,
                "status": status,
                "tags": tags,
                "updatedAt": updated_at,
                "withdrawnAt": withdrawn_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.author_out import AuthorOut
        from ..models.example_output_out import ExampleOutputOut
        from ..models.legal_out import LegalOut
        from ..models.price_out import PriceOut
        from ..models.published_out import PublishedOut
        from ..models.review_out import ReviewOut

        d = dict(src_dict)

        def _parse_agent_identifier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_identifier = _parse_agent_identifier(d.pop("agentIdentifier"))

        def _parse_author(data: object) -> AuthorOut | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                author_type_1 = AuthorOut.from_dict(data)

                return author_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuthorOut | None, data)

        author = _parse_author(d.pop("author"))

        base_url = d.pop("baseUrl")

        categories = cast(list[str], d.pop("categories"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        description = d.pop("description")

        example_outputs = []
        _example_outputs = d.pop("exampleOutputs")
        for example_outputs_item_data in _example_outputs:
            example_outputs_item = ExampleOutputOut.from_dict(example_outputs_item_data)

            example_outputs.append(example_outputs_item)

        id = UUID(d.pop("id"))

        def _parse_image(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        image = _parse_image(d.pop("image"))

        def _parse_legal(data: object) -> LegalOut | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                legal_type_1 = LegalOut.from_dict(data)

                return legal_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LegalOut | None, data)

        legal = _parse_legal(d.pop("legal"))

        name = d.pop("name")

        price = PriceOut.from_dict(d.pop("price"))

        pricing_type = d.pop("pricingType")

        published = PublishedOut.from_dict(d.pop("published"))

        review = ReviewOut.from_dict(d.pop("review"))

        source = d.pop("source")

        status = d.pop("status")

        tags = cast(list[str], d.pop("tags"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_withdrawn_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                withdrawn_at_type_0 = datetime.datetime.fromisoformat(data)

                return withdrawn_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        withdrawn_at = _parse_withdrawn_at(d.pop("withdrawnAt"))

        developer_agent_out = cls(
            agent_identifier=agent_identifier,
            author=author,
            base_url=base_url,
            categories=categories,
            created_at=created_at,
            description=description,
            example_outputs=example_outputs,
            id=id,
            image=image,
            legal=legal,
            name=name,
            price=price,
            pricing_type=pricing_type,
            published=published,
            review=review,
            source=source,
            status=status,
            tags=tags,
            updated_at=updated_at,
            withdrawn_at=withdrawn_at,
        )

        developer_agent_out.additional_properties = d
        return developer_agent_out

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
