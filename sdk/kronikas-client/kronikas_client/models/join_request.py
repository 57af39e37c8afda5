from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="JoinRequest")


@_attrs_define
class JoinRequest:
    """The player's name.

    Attributes:
        name (str): 1–32 printable characters once NFKC-normalised, not all blank; no two alike at a table, ignoring
            case.
    """

    name: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        join_request = cls(
            name=name,
        )

        return join_request
