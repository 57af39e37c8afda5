from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="QueueRequest")


@_attrs_define
class QueueRequest:
    """The game, and the table size (2).

    Attributes:
        kind (str):
        players (int | Unset):  Default: 2.
    """

    kind: str
    players: int | Unset = 2

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        players = self.players

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if players is not UNSET:
            field_dict["players"] = players

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = d.pop("kind")

        players = d.pop("players", UNSET)

        queue_request = cls(
            kind=kind,
            players=players,
        )

        return queue_request
