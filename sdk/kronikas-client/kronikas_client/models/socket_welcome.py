from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.socket_welcome_role import SocketWelcomeRole

if TYPE_CHECKING:
    from ..models.cheat_game_view import CheatGameView
    from ..models.thirty_one_game_view import ThirtyOneGameView


T = TypeVar("T", bound="SocketWelcome")


@_attrs_define
class SocketWelcome:
    """
    Attributes:
        game (CheatGameView | None | ThirtyOneGameView): The view, when `views` was asked.
        heartbeat_s (int): Seconds between heartbeats while all is quiet.
        idle_s (int): Seconds of silence from the client before it is closed.
        max_bytes (int): The largest message the server takes.
        player_id (None | str): The viewer's player id, when a player.
        role (SocketWelcomeRole):
        seat (int | None): The viewer's seat (null: not a player).
        type_ (Literal['welcome']):  Default: 'welcome'.
        version (int): The table's version now.
    """

    game: CheatGameView | None | ThirtyOneGameView
    heartbeat_s: int
    idle_s: int
    max_bytes: int
    player_id: None | str
    role: SocketWelcomeRole
    seat: int | None
    version: int
    type_: Literal["welcome"] = "welcome"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cheat_game_view import CheatGameView  # noqa: PLC0415
        from ..models.thirty_one_game_view import ThirtyOneGameView  # noqa: PLC0415

        game: dict[str, Any] | None
        if isinstance(self.game, CheatGameView):
            game = self.game.to_dict()
        elif isinstance(self.game, ThirtyOneGameView):
            game = self.game.to_dict()
        else:
            game = self.game

        heartbeat_s = self.heartbeat_s

        idle_s = self.idle_s

        max_bytes = self.max_bytes

        player_id: None | str
        player_id = self.player_id

        role = self.role.value

        seat: int | None
        seat = self.seat

        type_ = self.type_

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
                "heartbeat_s": heartbeat_s,
                "idle_s": idle_s,
                "max_bytes": max_bytes,
                "player_id": player_id,
                "role": role,
                "seat": seat,
                "type": type_,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_game_view import CheatGameView  # noqa: PLC0415
        from ..models.thirty_one_game_view import ThirtyOneGameView  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_game(data: object) -> CheatGameView | None | ThirtyOneGameView:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_view_type_0 = CheatGameView.from_dict(data)

                return componentsschemas_game_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_view_type_1 = ThirtyOneGameView.from_dict(data)

                return componentsschemas_game_view_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheatGameView | None | ThirtyOneGameView, data)

        game = _parse_game(d.pop("game"))

        heartbeat_s = d.pop("heartbeat_s")

        idle_s = d.pop("idle_s")

        max_bytes = d.pop("max_bytes")

        def _parse_player_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        player_id = _parse_player_id(d.pop("player_id"))

        role = SocketWelcomeRole(d.pop("role"))

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        type_ = cast(Literal["welcome"], d.pop("type"))
        if type_ != "welcome":
            raise ValueError(f"type must match const 'welcome', got '{type_}'")

        version = d.pop("version")

        socket_welcome = cls(
            game=game,
            heartbeat_s=heartbeat_s,
            idle_s=idle_s,
            max_bytes=max_bytes,
            player_id=player_id,
            role=role,
            seat=seat,
            type_=type_,
            version=version,
        )

        socket_welcome.additional_properties = d
        return socket_welcome

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
