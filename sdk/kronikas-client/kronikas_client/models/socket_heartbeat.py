from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SocketHeartbeat")


@_attrs_define
class SocketHeartbeat:
    """
    Attributes:
        type_ (Literal['heartbeat']):  Default: 'heartbeat'.
        version (int): The latest version this socket was sent.
    """

    version: int
    type_: Literal["heartbeat"] = "heartbeat"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["heartbeat"], d.pop("type"))
        if type_ != "heartbeat":
            raise ValueError(f"type must match const 'heartbeat', got '{type_}'")

        version = d.pop("version")

        socket_heartbeat = cls(
            type_=type_,
            version=version,
        )

        socket_heartbeat.additional_properties = d
        return socket_heartbeat

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
