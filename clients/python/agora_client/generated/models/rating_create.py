from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RatingCreate")


@_attrs_define
class RatingCreate:
    """
    Attributes:
        job_id (str): Your job, ended
        stars (int): 1 to 5
        review (None | str | Unset): Optional text (Markdown, sanitised)
    """

    job_id: str
    stars: int
    review: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        job_id = self.job_id

        stars = self.stars

        review: None | str | Unset
        if isinstance(self.review, Unset):
            review = UNSET
        else:
            review = self.review

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jobId": job_id,
                "stars": stars,
            }
        )
        if review is not UNSET:
            field_dict["review"] = review

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job_id = d.pop("jobId")

        stars = d.pop("stars")

        def _parse_review(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        review = _parse_review(d.pop("review", UNSET))

        rating_create = cls(
            job_id=job_id,
            stars=stars,
            review=review,
        )

        return rating_create
