from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReadByReferenceIn")


@_attrs_define
class ReadByReferenceIn:
    """
    Attributes:
        subject_ref (str): e.g. "job:<id>"
    """

    subject_ref: str

    def to_dict(self) -> dict[str, Any]:
        subject_ref = self.subject_ref

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subjectRef": subject_ref,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subject_ref = d.pop("subjectRef")

        read_by_reference_in = cls(
            subject_ref=subject_ref,
        )

        return read_by_reference_in
