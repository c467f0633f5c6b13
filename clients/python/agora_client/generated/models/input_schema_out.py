from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.input_schema_out_input_data_type_0_item import InputSchemaOutInputDataType0Item
    from ..models.input_schema_out_input_groups_type_0_item import (
        InputSchemaOutInputGroupsType0Item,
    )


T = TypeVar("T", bound="InputSchemaOut")


@_attrs_define
class InputSchemaOut:
    """
    Attributes:
        agent_id (str):
        input_data (list[InputSchemaOutInputDataType0Item] | None | Unset):
        input_groups (list[InputSchemaOutInputGroupsType0Item] | None | Unset):
    """

    agent_id: str
    input_data: list[InputSchemaOutInputDataType0Item] | None | Unset = UNSET
    input_groups: list[InputSchemaOutInputGroupsType0Item] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        input_data: list[dict[str, Any]] | None | Unset
        if isinstance(self.input_data, Unset):
            input_data = UNSET
        elif isinstance(self.input_data, list):
            input_data = []
            for input_data_type_0_item_data in self.input_data:
                input_data_type_0_item = input_data_type_0_item_data.to_dict()
                input_data.append(input_data_type_0_item)

        else:
            input_data = self.input_data

        input_groups: list[dict[str, Any]] | None | Unset
        if isinstance(self.input_groups, Unset):
            input_groups = UNSET
        elif isinstance(self.input_groups, list):
            input_groups = []
            for input_groups_type_0_item_data in self.input_groups:
                input_groups_type_0_item = input_groups_type_0_item_data.to_dict()
                input_groups.append(input_groups_type_0_item)

        else:
            input_groups = self.input_groups

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
            }
        )
        if input_data is not UNSET:
            field_dict["input_data"] = input_data
        if input_groups is not UNSET:
            field_dict["input_groups"] = input_groups

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.input_schema_out_input_data_type_0_item import (
            InputSchemaOutInputDataType0Item,
        )
        from ..models.input_schema_out_input_groups_type_0_item import (
            InputSchemaOutInputGroupsType0Item,
        )

        d = dict(src_dict)
        agent_id = d.pop("agentId")

        def _parse_input_data(
            data: object,
        ) -> list[InputSchemaOutInputDataType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                input_data_type_0 = []
                _input_data_type_0 = data
                for input_data_type_0_item_data in _input_data_type_0:
                    input_data_type_0_item = InputSchemaOutInputDataType0Item.from_dict(
                        input_data_type_0_item_data
                    )

                    input_data_type_0.append(input_data_type_0_item)

                return input_data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[InputSchemaOutInputDataType0Item] | None | Unset, data)

        input_data = _parse_input_data(d.pop("input_data", UNSET))

        def _parse_input_groups(
            data: object,
        ) -> list[InputSchemaOutInputGroupsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                input_groups_type_0 = []
                _input_groups_type_0 = data
                for input_groups_type_0_item_data in _input_groups_type_0:
                    input_groups_type_0_item = InputSchemaOutInputGroupsType0Item.from_dict(
                        input_groups_type_0_item_data
                    )

                    input_groups_type_0.append(input_groups_type_0_item)

                return input_groups_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[InputSchemaOutInputGroupsType0Item] | None | Unset, data)

        input_groups = _parse_input_groups(d.pop("input_groups", UNSET))

        input_schema_out = cls(
            agent_id=agent_id,
            input_data=input_data,
            input_groups=input_groups,
        )

        input_schema_out.additional_properties = d
        return input_schema_out

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
