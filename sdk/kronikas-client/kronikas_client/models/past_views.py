from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cheat_game_view import CheatGameView
    from ..models.thirty_one_game_view import ThirtyOneGameView


T = TypeVar("T", bound="PastViews")


@_attrs_define
class PastViews:
    """
    Attributes:
        more (bool): True when later versions exist: ask again with `after`.
        version (int): The table's version when it was read.
        views (list[CheatGameView | ThirtyOneGameView]): The view at each version after `after`, oldest first (at most
            50), as the asker's token saw the table then.
    """

    more: bool
    version: int
    views: list[CheatGameView | ThirtyOneGameView]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cheat_game_view import CheatGameView  # noqa: PLC0415

        more = self.more

        version = self.version

        views = []
        for views_item_data in self.views:
            views_item: dict[str, Any]
            if isinstance(views_item_data, CheatGameView):
                views_item = views_item_data.to_dict()
            else:
                views_item = views_item_data.to_dict()

            views.append(views_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "more": more,
                "version": version,
                "views": views,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_game_view import CheatGameView  # noqa: PLC0415
        from ..models.thirty_one_game_view import ThirtyOneGameView  # noqa: PLC0415

        d = dict(src_dict)
        more = d.pop("more")

        version = d.pop("version")

        views = []
        _views = d.pop("views")
        for views_item_data in _views:

            def _parse_views_item(data: object) -> CheatGameView | ThirtyOneGameView:
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

            views_item = _parse_views_item(views_item_data)

            views.append(views_item)

        past_views = cls(
            more=more,
            version=version,
            views=views,
        )

        past_views.additional_properties = d
        return past_views

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
