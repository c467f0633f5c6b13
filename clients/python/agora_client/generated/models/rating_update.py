from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RatingUpdate")


@_attrs_define
class RatingUpdate:
    """
    Attributes:
        review (None | str | Unset):
        stars (int | None | Unset):
    """

    review: None | str | Unset = UNSET
    stars: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        review: None | str | Unset
        if isinstance(self.review, Unset):
            review = UNSET
        else:
            review = self.review

        stars: int | None | Unset
        if isinstance(self.stars, Unset):
            stars = UNSET
        else:
            stars = self.stars

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if review is not UNSET:
            field_dict["review"] = review
        if stars is not UNSET:
            field_dict["stars"] = stars

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_review(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        review = _parse_review(d.pop("review", UNSET))

        def _parse_stars(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        stars = _parse_stars(d.pop("stars", UNSET))

        rating_update = cls(
            review=review,
            stars=stars,
        )

        return rating_update
