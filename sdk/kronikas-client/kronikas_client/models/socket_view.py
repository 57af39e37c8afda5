from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cheat_game_view import CheatGameView
    from ..models.thirty_one_game_view import ThirtyOneGameView


T = TypeVar("T", bound="SocketView")


@_attrs_define
class SocketView:
    """
    Attributes:
        game (CheatGameView | ThirtyOneGameView): A table as the asker may see it; `kind` says which game.
        type_ (Literal['view']):  Default: 'view'.
        version (int):
    """

    game: CheatGameView | ThirtyOneGameView
    version: int
    type_: Literal["view"] = "view"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cheat_game_view import CheatGameView  # noqa: PLC0415

        game: dict[str, Any]
        if isinstance(self.game, CheatGameView):
            game = self.game.to_dict()
        else:
            game = self.game.to_dict()

        type_ = self.type_

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
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

        def _parse_game(data: object) -> CheatGameView | ThirtyOneGameView:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_view_type_0 = CheatGameView.from_dict(data)

                return componentsschemas_game_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_game_view_type_1 = ThirtyOneGameView.from_dict(data)

            return componentsschemas_game_view_type_1

        game = _parse_game(d.pop("game"))

        type_ = cast(Literal["view"], d.pop("type"))
        if type_ != "view":
            raise ValueError(f"type must match const 'view', got '{type_}'")

        version = d.pop("version")

        socket_view = cls(
            game=game,
            type_=type_,
            version=version,
        )

        socket_view.additional_properties = d
        return socket_view

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
