from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SocketPing")


@_attrs_define
class SocketPing:
    """
    Attributes:
        type_ (Literal['ping']):  Default: 'ping'.
    """

    type_: Literal["ping"] = "ping"

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["ping"], d.pop("type"))
        if type_ != "ping":
            raise ValueError(f"type must match const 'ping', got '{type_}'")

        socket_ping = cls(
            type_=type_,
        )

        return socket_ping
