from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.author_in import AuthorIn
    from ..models.example_output_in import ExampleOutputIn
    from ..models.legal_in import LegalIn


T = TypeVar("T", bound="AgentSubmission")


@_attrs_define
class AgentSubmission:
    """
    Attributes:
        base_url (str):
        name (str):
        author (AuthorIn | None | Unset):
        categories (list[str] | Unset):
        changelog (None | str | Unset): What version 1 is (shown in its changelog)
        description (str | Unset):  Default: ''.
        example_outputs (list[ExampleOutputIn] | Unset):
        image (None | str | Unset):
        legal (LegalIn | None | Unset):
        price (float | int | str | Unset): Base price in credits per job (the marketplace fee is added); 0 = free
            Default: 0.0.
        tags (list[str] | Unset):
    """

    base_url: str
    name: str
    author: AuthorIn | None | Unset = UNSET
    categories: list[str] | Unset = UNSET
    changelog: None | str | Unset = UNSET
    description: str | Unset = ""
    example_outputs: list[ExampleOutputIn] | Unset = UNSET
    image: None | str | Unset = UNSET
    legal: LegalIn | None | Unset = UNSET
    price: float | int | str | Unset = 0.0
    tags: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.author_in import AuthorIn
        from ..models.legal_in import LegalIn

        base_url = self.base_url

        name = self.name

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

        changelog: None | str | Unset
        if isinstance(self.changelog, Unset):
            changelog = UNSET
        else:
            changelog = self.changelog

        description = self.description

        example_outputs: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.example_outputs, Unset):
            example_outputs = []
            for example_outputs_item_data in self.example_outputs:
                example_outputs_item = example_outputs_item_data.to_dict()
                example_outputs.append(example_outputs_item)

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
                "baseUrl": base_url,
                "name": name,
            }
        )
        if author is not UNSET:
            field_dict["author"] = author
        if categories is not UNSET:
            field_dict["categories"] = categories
        if changelog is not UNSET:
            field_dict["changelog"] = changelog
        if description is not UNSET:
            field_dict["description"] = description
        if example_outputs is not UNSET:
            field_dict["exampleOutputs"] = example_outputs
        if image is not UNSET:
            field_dict["image"] = image
        if legal is not UNSET:
            field_dict["legal"] = legal
        if price is not UNSET:
            field_dict["price"] = price
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.author_in import AuthorIn
        from ..models.example_output_in import ExampleOutputIn
        from ..models.legal_in import LegalIn

        d = dict(src_dict)
        base_url = d.pop("baseUrl")

        name = d.pop("name")

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

        def _parse_changelog(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        changelog = _parse_changelog(d.pop("changelog", UNSET))

        description = d.pop("description", UNSET)

        _example_outputs = d.pop("exampleOutputs", UNSET)
        example_outputs: list[ExampleOutputIn] | Unset = UNSET
        if _example_outputs is not UNSET:
            example_outputs = []
            for example_outputs_item_data in _example_outputs:
                example_outputs_item = ExampleOutputIn.from_dict(example_outputs_item_data)

                example_outputs.append(example_outputs_item)

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

        def _parse_price(data: object) -> float | int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(float | int | str | Unset, data)

        price = _parse_price(d.pop("price", UNSET))

        tags = cast(list[str], d.pop("tags", UNSET))

        agent_submission = cls(
            base_url=base_url,
            name=name,
            author=author,
            categories=categories,
            changelog=changelog,
            description=description,
            example_outputs=example_outputs,
            image=image,
            legal=legal,
            price=price,
            tags=tags,
        )

        return agent_submission
