from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.cheat_game_view_status import CheatGameViewStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cheat_my_hand import CheatMyHand
    from ..models.cheat_player_view import CheatPlayerView
    from ..models.cheat_round_result import CheatRoundResult
    from ..models.cheat_table_options import CheatTableOptions
    from ..models.cheat_table_view import CheatTableView
    from ..models.opening import Opening


T = TypeVar("T", bound="CheatGameView")


@_attrs_define
class CheatGameView:
    """
    Attributes:
        cheat (CheatTableView | None):
        deadline (None | str): When the clock of the seat the table waits for (`turn`) runs out, RFC 3339 in UTC; null
            without a clock or when the table waits for nobody.
        dealer (int | None):
        id (str):
        kind (Literal['cheat']):  Default: 'cheat'.
        last_round (CheatRoundResult | None):
        legal (list[str] | None):
        me (CheatMyHand | None):
        openings (list[Opening]):
        options (CheatTableOptions):
        players (list[CheatPlayerView]):
        round_ (int):
        seeded (bool):
        status (CheatGameViewStatus):
        turn (int | None):
        version (int):
        winners (list[int]):
        end_reason (Literal['event_cap'] | Unset): Why the match ended before its rules ended it: `event_cap`, its
            table's log reached the most events a table keeps (docs/rules.md).
    """

    cheat: CheatTableView | None
    deadline: None | str
    dealer: int | None
    id: str
    last_round: CheatRoundResult | None
    legal: list[str] | None
    me: CheatMyHand | None
    openings: list[Opening]
    options: CheatTableOptions
    players: list[CheatPlayerView]
    round_: int
    seeded: bool
    status: CheatGameViewStatus
    turn: int | None
    version: int
    winners: list[int]
    kind: Literal["cheat"] = "cheat"
    end_reason: Literal["event_cap"] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cheat_my_hand import CheatMyHand  # noqa: PLC0415
        from ..models.cheat_round_result import CheatRoundResult  # noqa: PLC0415
        from ..models.cheat_table_view import CheatTableView  # noqa: PLC0415

        cheat: dict[str, Any] | None
        if isinstance(self.cheat, CheatTableView):
            cheat = self.cheat.to_dict()
        else:
            cheat = self.cheat

        deadline: None | str
        deadline = self.deadline

        dealer: int | None
        dealer = self.dealer

        id = self.id

        kind = self.kind

        last_round: dict[str, Any] | None
        if isinstance(self.last_round, CheatRoundResult):
            last_round = self.last_round.to_dict()
        else:
            last_round = self.last_round

        legal: list[str] | None
        if isinstance(self.legal, list):
            legal = self.legal

        else:
            legal = self.legal

        me: dict[str, Any] | None
        if isinstance(self.me, CheatMyHand):
            me = self.me.to_dict()
        else:
            me = self.me

        openings = []
        for openings_item_data in self.openings:
            openings_item = openings_item_data.to_dict()
            openings.append(openings_item)

        options = self.options.to_dict()

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        round_ = self.round_

        seeded = self.seeded

        status = self.status.value

        turn: int | None
        turn = self.turn

        version = self.version

        winners = self.winners

        end_reason: Literal["event_cap"] | Unset
        if isinstance(self.end_reason, Unset):
            end_reason = UNSET
        else:
            end_reason = self.end_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cheat": cheat,
                "deadline": deadline,
                "dealer": dealer,
                "id": id,
                "kind": kind,
                "last_round": last_round,
                "legal": legal,
                "me": me,
                "openings": openings,
                "options": options,
                "players": players,
                "round": round_,
                "seeded": seeded,
                "status": status,
                "turn": turn,
                "version": version,
                "winners": winners,
            }
        )
        if end_reason is not UNSET:
            field_dict["end_reason"] = end_reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_my_hand import CheatMyHand  # noqa: PLC0415
        from ..models.cheat_player_view import CheatPlayerView  # noqa: PLC0415
        from ..models.cheat_round_result import CheatRoundResult  # noqa: PLC0415
        from ..models.cheat_table_options import CheatTableOptions  # noqa: PLC0415
        from ..models.cheat_table_view import CheatTableView  # noqa: PLC0415
        from ..models.opening import Opening  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_cheat(data: object) -> CheatTableView | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                cheat_type_0 = CheatTableView.from_dict(data)

                return cheat_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheatTableView | None, data)

        cheat = _parse_cheat(d.pop("cheat"))

        def _parse_deadline(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        deadline = _parse_deadline(d.pop("deadline"))

        def _parse_dealer(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        dealer = _parse_dealer(d.pop("dealer"))

        id = d.pop("id")

        kind = cast(Literal["cheat"], d.pop("kind"))
        if kind != "cheat":
            raise ValueError(f"kind must match const 'cheat', got '{kind}'")

        def _parse_last_round(data: object) -> CheatRoundResult | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_round_type_0 = CheatRoundResult.from_dict(data)

                return last_round_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheatRoundResult | None, data)

        last_round = _parse_last_round(d.pop("last_round"))

        def _parse_legal(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                legal_type_0 = cast(list[str], data)

                return legal_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        legal = _parse_legal(d.pop("legal"))

        def _parse_me(data: object) -> CheatMyHand | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                me_type_0 = CheatMyHand.from_dict(data)

                return me_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheatMyHand | None, data)

        me = _parse_me(d.pop("me"))

        openings = []
        _openings = d.pop("openings")
        for openings_item_data in _openings:
            openings_item = Opening.from_dict(openings_item_data)

            openings.append(openings_item)

        options = CheatTableOptions.from_dict(d.pop("options"))

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = CheatPlayerView.from_dict(players_item_data)

            players.append(players_item)

        round_ = d.pop("round")

        seeded = d.pop("seeded")

        status = CheatGameViewStatus(d.pop("status"))

        def _parse_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn = _parse_turn(d.pop("turn"))

        version = d.pop("version")

        winners = cast(list[int], d.pop("winners"))

        def _parse_end_reason(data: object) -> Literal["event_cap"] | Unset:
            if isinstance(data, Unset):
                return data
            end_reason_type_0 = cast(Literal["event_cap"], data)
            if end_reason_type_0 != "event_cap":
                raise ValueError(f"end_reason_type_0 must match const 'event_cap', got '{end_reason_type_0}'")
            return end_reason_type_0

        end_reason = _parse_end_reason(d.pop("end_reason", UNSET))

        cheat_game_view = cls(
            cheat=cheat,
            deadline=deadline,
            dealer=dealer,
            id=id,
            kind=kind,
            last_round=last_round,
            legal=legal,
            me=me,
            openings=openings,
            options=options,
            players=players,
            round_=round_,
            seeded=seeded,
            status=status,
            turn=turn,
            version=version,
            winners=winners,
            end_reason=end_reason,
        )

        cheat_game_view.additional_properties = d
        return cheat_game_view

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
