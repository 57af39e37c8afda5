from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.command_result import CommandResult


T = TypeVar("T", bound="SocketResult")


@_attrs_define
class SocketResult:
    """
    Attributes:
        id (str):
        result (CommandResult):
        type_ (Literal['result']):  Default: 'result'.
    """

    id: str
    result: CommandResult
    type_: Literal["result"] = "result"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        result = self.result.to_dict()

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "result": result,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.command_result import CommandResult  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        result = CommandResult.from_dict(d.pop("result"))

        type_ = cast(Literal["result"], d.pop("type"))
        if type_ != "result":
            raise ValueError(f"type must match const 'result', got '{type_}'")

        socket_result = cls(
            id=id,
            result=result,
            type_=type_,
        )

        socket_result.additional_properties = d
        return socket_result

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
