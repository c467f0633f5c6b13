from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.author_in import AuthorIn
    from ..models.legal_in import LegalIn


T = TypeVar("T", bound="A2AAgentSubmission")


@_attrs_define
class A2AAgentSubmission:
    """An A2A agent submitted by its Agent Card (docs/a2a.md): name and description default to
    the card's; ``credential`` (optional) is what Agora sends the agent (an API key in the
    card's API-key header, else a bearer token), sealed at rest and never shown.

        Attributes:
            agent_card_url (str):
            author (AuthorIn | None | Unset):
            categories (list[str] | Unset):
            credential (None | str | Unset):
            description (None | str | Unset):
            image (None | str | Unset):
            legal (LegalIn | None | Unset):
            name (None | str | Unset):
            price (float | int | str | Unset): Base price in credits per job (the marketplace fee is added); 0 = free
                Default: 0.0.
            tags (list[str] | Unset):
    """

    agent_card_url: str
    author: AuthorIn | None | Unset = UNSET
    categories: list[str] | Unset = UNSET
    credential: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    image: None | str | Unset = UNSET
    legal: LegalIn | None | Unset = UNSET
    name: None | str | Unset = UNSET
    price: float | int | str | Unset = 0.0
    tags: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.author_in import AuthorIn
        from ..models.legal_in import LegalIn

        agent_card_url = self.agent_card_url

        author: dict[str, Any] | None | Unset
        if isinstance(self.author, Unset):
            author = UNSET
        elif isinstance(self.author, AuthorIn):
            author = self.author.to_dict()
        else:
            author = self.author

        categories: list[str] | Unset = UNSET
        if not isinstance(self.categories, Unset):
            categories = self.categories

        credential: None | str | Unset
        if isinstance(self.credential, Unset):
            credential = UNSET
        else:
            credential = self.credential

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        image: None | str | Unset
        if isinstance(self.image, Unset):
            image = UNSET
        else:
            image = self.image

        legal: dict[str, Any] | None | Unset
        if isinstance(self.legal, Unset):
            legal = UNSET
        elif isinstance(self.legal, LegalIn):
            legal = self.legal.to_dict()
        else:
            legal = self.legal

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        price: float | int | str | Unset
        if isinstance(self.price, Unset):
            price = UNSET
        else:
            price = self.price

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agentCardUrl": agent_card_url,
            }
        )
        if author is not UNSET:
            field_dict["author"] = author
        if categories is not UNSET:
            field_dict["categories"] = categories
        if credential is not UNSET:
            field_dict["credential"] = credential
        if description is not UNSET:
            field_dict["description"] = description
        if image is not UNSET:
            field_dict["image"] = image
        if legal is not UNSET:
            field_dict["legal"] = legal
        if name is not UNSET:
            field_dict["name"] = name
        if price is not UNSET:
            field_dict["price"] = price
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.author_in import AuthorIn
        from ..models.legal_in import LegalIn

        d = dict(src_dict)
        agent_card_url = d.pop("agentCardUrl")

        def _parse_author(data: object) -> AuthorIn | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                author_type_1 = AuthorIn.from_dict(data)

                return author_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuthorIn | None | Unset, data)

        author = _parse_author(d.pop("author", UNSET))

        categories = cast(list[str], d.pop("categories", UNSET))

        def _parse_credential(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        credential = _parse_credential(d.pop("credential", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_image(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        image = _parse_image(d.pop("image", UNSET))

        def _parse_legal(data: object) -> LegalIn | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                legal_type_1 = LegalIn.from_dict(data)

                return legal_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LegalIn | None | Unset, data)

        legal = _parse_legal(d.pop("legal", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_price(data: object) -> float | int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(float | int | str | Unset, data)

        price = _parse_price(d.pop("price", UNSET))

        tags = cast(list[str], d.pop("tags", UNSET))

        a2a_agent_submission = cls(
            agent_card_url=agent_card_url,
            author=author,
            categories=categories,
            credential=credential,
            description=description,
            image=image,
            legal=legal,
            name=name,
            price=price,
            tags=tags,
        )

        return a2a_agent_submission
