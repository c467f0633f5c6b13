from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.author_in import AuthorIn
    from ..models.example_output_in import ExampleOutputIn
    from ..models.legal_in import LegalIn


T = TypeVar("T", bound="AgentUpdate")


@_attrs_define
class AgentUpdate:
    """PATCH: only the fields sent change. A new baseUrl or price of a verified agent sends it
    back to review; text edits do not.

        Attributes:
            author (AuthorIn | None | Unset):
            base_url (None | str | Unset):
            categories (list[str] | None | Unset):
            changelog (None | str | Unset): What the change of baseUrl, schema or price brings: the next version's changelog
                once approved
            description (None | str | Unset):
            example_outputs (list[ExampleOutputIn] | None | Unset):
            image (None | str | Unset):
            legal (LegalIn | None | Unset):
            name (None | str | Unset):
            price (float | int | None | str | Unset):
            tags (list[str] | None | Unset):
    """

    author: AuthorIn | None | Unset = UNSET
    base_url: None | str | Unset = UNSET
    categories: list[str] | None | Unset = UNSET
    changelog: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    example_outputs: list[ExampleOutputIn] | None | Unset = UNSET
    image: None | str | Unset = UNSET
    legal: LegalIn | None | Unset = UNSET
    name: None | str | Unset = UNSET
    price: float | int | None | str | Unset = UNSET
    tags: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.author_in import AuthorIn
        from ..models.legal_in import LegalIn

        author: dict[str, Any] | None | Unset
        if isinstance(self.author, Unset):
            author = UNSET
        elif isinstance(self.author, AuthorIn):
            author = self.author.to_dict()
        else:
            author = self.author

        base_url: None | str | Unset
        if isinstance(self.base_url, Unset):
            base_url = UNSET
        else:
            base_url = self.base_url

        categories: list[str] | None | Unset
        if isinstance(self.categories, Unset):
            categories = UNSET
        elif isinstance(self.categories, list):
            categories = self.categories

        else:
            categories = self.categories

        changelog: None | str | Unset
        if isinstance(self.changelog, Unset):
            changelog = UNSET
        else:
            changelog = self.changelog

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        example_outputs: list[dict[str, Any]] | None | Unset
        if isinstance(self.example_outputs, Unset):
            example_outputs = UNSET
        elif isinstance(self.example_outputs, list):
            example_outputs = []
            for example_outputs_type_0_item_data in self.example_outputs:
                example_outputs_type_0_item = example_outputs_type_0_item_data.to_dict()
                example_outputs.append(example_outputs_type_0_item)

        else:
            example_outputs = self.example_outputs

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

        price: float | int | None | str | Unset
        if isinstance(self.price, Unset):
            price = UNSET
        else:
            price = self.price

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = self.tags

        else:
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if author is not UNSET:
            field_dict["author"] = author
        if base_url is not UNSET:
            field_dict["baseUrl"] = base_url
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
        from ..models.example_output_in import ExampleOutputIn
        from ..models.legal_in import LegalIn

        d = dict(src_dict)

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

        def _parse_base_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        base_url = _parse_base_url(d.pop("baseUrl", UNSET))

        def _parse_categories(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                categories_type_0 = cast(list[str], data)

                return categories_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        categories = _parse_categories(d.pop("categories", UNSET))

        def _parse_changelog(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        changelog = _parse_changelog(d.pop("changelog", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_example_outputs(data: object) -> list[ExampleOutputIn] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                example_outputs_type_0 = []
                _example_outputs_type_0 = data
                for example_outputs_type_0_item_data in _example_outputs_type_0:
                    example_outputs_type_0_item = ExampleOutputIn.from_dict(
                        example_outputs_type_0_item_data
                    )

                    example_outputs_type_0.append(example_outputs_type_0_item)

                return example_outputs_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ExampleOutputIn] | None | Unset, data)

        example_outputs = _parse_example_outputs(d.pop("exampleOutputs", UNSET))

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

        def _parse_price(data: object) -> float | int | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | int | None | str | Unset, data)

        price = _parse_price(d.pop("price", UNSET))

        def _parse_tags(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = cast(list[str], data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))

        agent_update = cls(
            author=author,
            base_url=base_url,
            categories=categories,
            changelog=changelog,
            description=description,
            example_outputs=example_outputs,
            image=image,
            legal=legal,
            name=name,
            price=price,
            tags=tags,
        )

        return agent_update
