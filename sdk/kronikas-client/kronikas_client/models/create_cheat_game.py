from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cheat_options import CheatOptions


T = TypeVar("T", bound="CreateCheatGame")


@_attrs_define
class CreateCheatGame:
    """
    Attributes:
        kind (Literal['cheat']):  Default: 'cheat'.
        options (CheatOptions | Unset):
        seed (int | None | Unset): Deal reproducibly from this seed (the view then says `seeded: true`): for tests and
            replays, never a fair game (a guessable seed can be found from a deal's commitment).
    """

    kind: Literal["cheat"] = "cheat"
    options: CheatOptions | Unset = UNSET
    seed: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_options import CheatOptions  # noqa: PLC0415

        d = dict(src_dict)
        kind = cast(Literal["cheat"], d.pop("kind"))
        if kind != "cheat":
            raise ValueError(f"kind must match const 'cheat', got '{kind}'")

        _options = d.pop("options", UNSET)
        options: CheatOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = CheatOptions.from_dict(_options)

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        create_cheat_game = cls(
            kind=kind,
            options=options,
            seed=seed,
        )

        return create_cheat_game
