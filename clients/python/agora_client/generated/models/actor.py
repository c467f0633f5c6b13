from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.actor_type import ActorType, check_actor_type
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.coworker_ref import CoworkerRef
    from ..models.named_ref import NamedRef


T = TypeVar("T", bound="Actor")


@_attrs_define
class Actor:
    """Read from ``tasks.service.ActorView``.

    Attributes:
        id (None | UUID):
        type_ (ActorType):
        coworker (CoworkerRef | None | Unset):
        user (NamedRef | None | Unset):
    """

    id: None | UUID
    type_: ActorType
    coworker: CoworkerRef | None | Unset = UNSET
    user: NamedRef | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.coworker_ref import CoworkerRef
        from ..models.named_ref import NamedRef

        id: None | str
        if isinstance(self.id, UUID):
            id = str(self.id)
        else:
            id = self.id

        type_: str = self.type_

        coworker: dict[str, Any] | None | Unset
        if isinstance(self.coworker, Unset):
            coworker = UNSET
        elif isinstance(self.coworker, CoworkerRef):
            coworker = self.coworker.to_dict()
        else:
            coworker = self.coworker

        user: dict[str, Any] | None | Unset
        if isinstance(self.user, Unset):
            user = UNSET
        elif isinstance(self.user, NamedRef):
            user = self.user.to_dict()
        else:
            user = self.user

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
            }
        )
        if coworker is not UNSET:
            field_dict["coworker"] = coworker
        if user is not UNSET:
            field_dict["user"] = user

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.coworker_ref import CoworkerRef
        from ..models.named_ref import NamedRef

        d = dict(src_dict)

        def _parse_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                id_type_0 = UUID(data)

                return id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        id = _parse_id(d.pop("id"))

        type_ = check_actor_type(d.pop("type"))

        def _parse_coworker(data: object) -> CoworkerRef | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                coworker_type_1 = CoworkerRef.from_dict(data)

                return coworker_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CoworkerRef | None | Unset, data)

        coworker = _parse_coworker(d.pop("coworker", UNSET))

        def _parse_user(data: object) -> NamedRef | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                user_type_1 = NamedRef.from_dict(data)

                return user_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NamedRef | None | Unset, data)

        user = _parse_user(d.pop("user", UNSET))

        actor = cls(
            id=id,
            type_=type_,
            coworker=coworker,
            user=user,
        )

        actor.additional_properties = d
        return actor

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
