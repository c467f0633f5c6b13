from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.agent_version_out_inputschema import AgentVersionOutInputschema
    from ..models.price import Price


T = TypeVar("T", bound="AgentVersionOut")


@_attrs_define
class AgentVersionOut:
    """One version of an agent (read from an ``AgentVersion`` row).

    Attributes:
        changelog (str):
        created_at (datetime.datetime):
        input_schema (AgentVersionOutInputschema | None):
        number (int):
        price (Price): A price in display units: ``credits`` is what the caller pays, fee included.
        pricing_type (str):
    """

    changelog: str
    created_at: datetime.datetime
    input_schema: AgentVersionOutInputschema | None
    number: int
    price: Price
    pricing_type: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_version_out_inputschema import AgentVersionOutInputschema

        changelog = self.changelog

        created_at = self.created_at.isoformat()

        input_schema: dict[str, Any] | None
        if isinstance(self.input_schema, AgentVersionOutInputschema):
            input_schema = self.input_schema.to_dict()
        else:
            input_schema = self.input_schema

        number = self.number

        price = self.price.to_dict()

        pricing_type = self.pricing_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changelog": changelog,
                "createdAt": created_at,
                "inputSchema": input_schema,
                "number": number,
                "price": price,
                "pricingType": pricing_type,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.agent_version_out_inputschema import AgentVersionOutInputschema
        from ..models.price import Price

        d = dict(src_dict)
        changelog = d.pop("changelog")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_input_schema(data: object) -> AgentVersionOutInputschema | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                input_schema_type_0 = AgentVersionOutInputschema.from_dict(data)

                return input_schema_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionOutInputschema | None, data)

        input_schema = _parse_input_schema(d.pop("inputSchema"))

        number = d.pop("number")

        price = Price.from_dict(d.pop("price"))

        pricing_type = d.pop("pricingType")

        agent_version_out = cls(
            changelog=changelog,
            created_at=created_at,
            input_schema=input_schema,
            number=number,
            price=price,
            pricing_type=pricing_type,
        )

        agent_version_out.additional_properties = d
        return agent_version_out

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
