from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.preference_in import PreferenceIn


T = TypeVar("T", bound="PreferencesIn")


@_attrs_define
class PreferencesIn:
    """
    Attributes:
        preferences (list[PreferenceIn]):
    """

    preferences: list[PreferenceIn]

    def to_dict(self) -> dict[str, Any]:
        preferences = []
        for preferences_item_data in self.preferences:
            preferences_item = preferences_item_data.to_dict()
            preferences.append(preferences_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "preferences": preferences,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preference_in import PreferenceIn

        d = dict(src_dict)
        preferences = []
        _preferences = d.pop("preferences")
        for preferences_item_data in _preferences:
            preferences_item = PreferenceIn.from_dict(preferences_item_data)

            preferences.append(preferences_item)

        preferences_in = cls(
            preferences=preferences,
        )

        return preferences_in
