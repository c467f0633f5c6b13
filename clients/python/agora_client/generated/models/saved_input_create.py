from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.saved_input_create_inputdata import SavedInputCreateInputdata


T = TypeVar("T", bound="SavedInputCreate")


@_attrs_define
class SavedInputCreate:
    """
    Attributes:
        name (str):
        agent_version (int | None | Unset): Pin this version of the agent; left out: follow the latest compatible one
            (the newest version whose input schema accepts inputData).
        input_data (SavedInputCreateInputdata | Unset):
    """

    name: str
    agent_version: int | None | Unset = UNSET
    input_data: SavedInputCreateInputdata | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        agent_version: int | None | Unset
        if isinstance(self.agent_version, Unset):
            agent_version = UNSET
        else:
            agent_version = self.agent_version

        input_data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.input_data, Unset):
            input_data = self.input_data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if agent_version is not UNSET:
            field_dict["agentVersion"] = agent_version
        if input_data is not UNSET:
            field_dict["inputData"] = input_data

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.saved_input_create_inputdata import SavedInputCreateInputdata

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_agent_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        agent_version = _parse_agent_version(d.pop("agentVersion", UNSET))

        _input_data = d.pop("inputData", UNSET)
        input_data: SavedInputCreateInputdata | Unset
        if isinstance(_input_data, Unset):
            input_data = UNSET
        else:
            input_data = SavedInputCreateInputdata.from_dict(_input_data)

        saved_input_create = cls(
            name=name,
            agent_version=agent_version,
            input_data=input_data,
        )

        return saved_input_create
