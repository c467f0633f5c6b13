from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.meta_b_pagination import MetaBPagination


T = TypeVar("T", bound="MetaB")


@_attrs_define
class MetaB:
    """
    Attributes:
        request_id (str):
        pagination (MetaBPagination | None | Unset):
        timestamp (str | Unset):
    """

    request_id: str
    pagination: MetaBPagination | None | Unset = UNSET
    timestamp: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.meta_b_pagination import MetaBPagination

        request_id = self.request_id

        pagination: dict[str, Any] | None | Unset
        if isinstance(self.pagination, Unset):
            pagination = UNSET
        elif isinstance(self.pagination, MetaBPagination):
            pagination = self.pagination.to_dict()
        else:
            pagination = self.pagination

        timestamp = self.timestamp

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "requestId": request_id,
            }
        )
        if pagination is not UNSET:
            field_dict["pagination"] = pagination
        if timestamp is not UNSET:
            field_dict["timestamp"] = timestamp

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.meta_b_pagination import MetaBPagination

        d = dict(src_dict)
        request_id = d.pop("requestId")

        def _parse_pagination(data: object) -> MetaBPagination | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pagination_type_0 = MetaBPagination.from_dict(data)

                return pagination_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MetaBPagination | None | Unset, data)

        pagination = _parse_pagination(d.pop("pagination", UNSET))

        timestamp = d.pop("timestamp", UNSET)

        meta_b = cls(
            request_id=request_id,
            pagination=pagination,
            timestamp=timestamp,
        )

        meta_b.additional_properties = d
        return meta_b

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
