from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RatingOut")


@_attrs_define
class RatingOut:
    """Read from a ``Rating`` row. The hirer is not named; ``editableUntil`` is when the hirer
    can no longer change it.

        Attributes:
            agent_id (UUID):
            created_at (datetime.datetime):
            editable_until (datetime.datetime):
            id (UUID):
            job_id (UUID):
            replied_at (datetime.datetime | None):
            reply (None | str):
            review (None | str):
            stars (int):
            updated_at (datetime.datetime):
    """

    agent_id: UUID
    created_at: datetime.datetime
    editable_until: datetime.datetime
    id: UUID
    job_id: UUID
    replied_at: datetime.datetime | None
    reply: None | str
    review: None | str
    stars: int
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        created_at = self.created_at.isoformat()

        editable_until = self.editable_until.isoformat()

        id = str(self.id)

        job_id = str(self.job_id)

        replied_at: None | str
        if isinstance(self.replied_at, datetime.datetime):
            replied_at = self.replied_at.isoformat()
        else:
            replied_at = self.replied_at

        reply: None | str
        reply = self.reply

        review: None | str
        review = self.review

        stars = self.stars

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "createdAt": created_at,
                "editableUntil": editable_until,
                "id": id,
                "jobId": job_id,
                "repliedAt": replied_at,
                "reply": reply,
                "review": review,
                "stars": stars,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        editable_until = datetime.datetime.fromisoformat(d.pop("editableUntil"))

        id = UUID(d.pop("id"))

        job_id = UUID(d.pop("jobId"))

        def _parse_replied_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                replied_at_type_0 = datetime.datetime.fromisoformat(data)

                return replied_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        replied_at = _parse_replied_at(d.pop("repliedAt"))

        def _parse_reply(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reply = _parse_reply(d.pop("reply"))

        def _parse_review(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        review = _parse_review(d.pop("review"))

        stars = d.pop("stars")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        rating_out = cls(
            agent_id=agent_id,
            created_at=created_at,
            editable_until=editable_until,
            id=id,
            job_id=job_id,
            replied_at=replied_at,
            reply=reply,
            review=review,
            stars=stars,
            updated_at=updated_at,
        )

        rating_out.additional_properties = d
        return rating_out

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
