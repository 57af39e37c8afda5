from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SocketHello")


@_attrs_define
class SocketHello:
    """
    Attributes:
        type_ (Literal['hello']):  Default: 'hello'.
        after (int | Unset): Send the events after this version (the last one seen; 0: from the start). Default: 0.
        token (None | str | Unset): A seat's or the host's token; null (or left out) for a spectator.
        views (bool | Unset): Also send the viewer's view after each `events` message (and in `welcome`). Default:
            False.
    """

    type_: Literal["hello"] = "hello"
    after: int | Unset = 0
    token: None | str | Unset = UNSET
    views: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        after = self.after

        token: None | str | Unset
        if isinstance(self.token, Unset):
            token = UNSET
        else:
            token = self.token

        views = self.views

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if after is not UNSET:
            field_dict["after"] = after
        if token is not UNSET:
            field_dict["token"] = token
        if views is not UNSET:
            field_dict["views"] = views

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["hello"], d.pop("type"))
        if type_ != "hello":
            raise ValueError(f"type must match const 'hello', got '{type_}'")

        after = d.pop("after", UNSET)

        def _parse_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        token = _parse_token(d.pop("token", UNSET))

        views = d.pop("views", UNSET)

        socket_hello = cls(
            type_=type_,
            after=after,
            token=token,
            views=views,
        )

        return socket_hello
