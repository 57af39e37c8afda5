from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.thirty_one_game_view_status import ThirtyOneGameViewStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.opening import Opening
    from ..models.thirty_one_my_hand import ThirtyOneMyHand
    from ..models.thirty_one_player_view import ThirtyOnePlayerView
    from ..models.thirty_one_round_result import ThirtyOneRoundResult
    from ..models.thirty_one_table_options import ThirtyOneTableOptions
    from ..models.thirty_one_table_view import ThirtyOneTableView


T = TypeVar("T", bound="ThirtyOneGameView")


@_attrs_define
class ThirtyOneGameView:
    """
    Attributes:
        deadline (None | str): When the clock of the seat the table waits for (`turn`) runs out, RFC 3339 in UTC; null
            without a clock or when the table waits for nobody.
        dealer (int | None):
        id (str):
        kind (Literal['thirty_one']):  Default: 'thirty_one'.
        last_round (None | ThirtyOneRoundResult):
        legal (list[str] | None):
        me (None | ThirtyOneMyHand):
        openings (list[Opening]): The openings of the round's cards this view shows the viewer (its hand, the table, the
            hands shown in the last circuit), by position, to check against the round's `commitment`; empty outside a round,
            for a deal of the old scheme, and in a command's answer, whose events (and those before) brought them.
        options (ThirtyOneTableOptions):
        players (list[ThirtyOnePlayerView]):
        round_ (int):
        seeded (bool):
        status (ThirtyOneGameViewStatus):
        thirty_one (None | ThirtyOneTableView):
        turn (int | None):
        version (int):
        winners (list[int]):
        end_reason (Literal['event_cap'] | Unset): Why the match ended before its rules ended it: `event_cap`, its
            table's log reached the most events a table keeps (docs/rules.md).
    """

    deadline: None | str
    dealer: int | None
    id: str
    last_round: None | ThirtyOneRoundResult
    legal: list[str] | None
    me: None | ThirtyOneMyHand
    openings: list[Opening]
    options: ThirtyOneTableOptions
    players: list[ThirtyOnePlayerView]
    round_: int
    seeded: bool
    status: ThirtyOneGameViewStatus
    thirty_one: None | ThirtyOneTableView
    turn: int | None
    version: int
    winners: list[int]
    kind: Literal["thirty_one"] = "thirty_one"
    end_reason: Literal["event_cap"] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.thirty_one_my_hand import ThirtyOneMyHand  # noqa: PLC0415
        from ..models.thirty_one_round_result import ThirtyOneRoundResult  # noqa: PLC0415
        from ..models.thirty_one_table_view import ThirtyOneTableView  # noqa: PLC0415

        deadline: None | str
        deadline = self.deadline

        dealer: int | None
        dealer = self.dealer

        id = self.id

        kind = self.kind

        last_round: dict[str, Any] | None
        if isinstance(self.last_round, ThirtyOneRoundResult):
            last_round = self.last_round.to_dict()
        else:
            last_round = self.last_round

        legal: list[str] | None
        if isinstance(self.legal, list):
            legal = self.legal

        else:
            legal = self.legal

        me: dict[str, Any] | None
        if isinstance(self.me, ThirtyOneMyHand):
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

        thirty_one: dict[str, Any] | None
        if isinstance(self.thirty_one, ThirtyOneTableView):
            thirty_one = self.thirty_one.to_dict()
        else:
            thirty_one = self.thirty_one

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
                "thirty_one": thirty_one,
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
        from ..models.opening import Opening  # noqa: PLC0415
        from ..models.thirty_one_my_hand import ThirtyOneMyHand  # noqa: PLC0415
        from ..models.thirty_one_player_view import ThirtyOnePlayerView  # noqa: PLC0415
        from ..models.thirty_one_round_result import ThirtyOneRoundResult  # noqa: PLC0415
        from ..models.thirty_one_table_options import ThirtyOneTableOptions  # noqa: PLC0415
        from ..models.thirty_one_table_view import ThirtyOneTableView  # noqa: PLC0415

        d = dict(src_dict)

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

        kind = cast(Literal["thirty_one"], d.pop("kind"))
        if kind != "thirty_one":
            raise ValueError(f"kind must match const 'thirty_one', got '{kind}'")

        def _parse_last_round(data: object) -> None | ThirtyOneRoundResult:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_round_type_0 = ThirtyOneRoundResult.from_dict(data)

                return last_round_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ThirtyOneRoundResult, data)

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

        def _parse_me(data: object) -> None | ThirtyOneMyHand:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                me_type_0 = ThirtyOneMyHand.from_dict(data)

                return me_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ThirtyOneMyHand, data)

        me = _parse_me(d.pop("me"))

        openings = []
        _openings = d.pop("openings")
        for openings_item_data in _openings:
            openings_item = Opening.from_dict(openings_item_data)

            openings.append(openings_item)

        options = ThirtyOneTableOptions.from_dict(d.pop("options"))

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = ThirtyOnePlayerView.from_dict(players_item_data)

            players.append(players_item)

        round_ = d.pop("round")

        seeded = d.pop("seeded")

        status = ThirtyOneGameViewStatus(d.pop("status"))

        def _parse_thirty_one(data: object) -> None | ThirtyOneTableView:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                thirty_one_type_0 = ThirtyOneTableView.from_dict(data)

                return thirty_one_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ThirtyOneTableView, data)

        thirty_one = _parse_thirty_one(d.pop("thirty_one"))

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

        thirty_one_game_view = cls(
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
            thirty_one=thirty_one,
            turn=turn,
            version=version,
            winners=winners,
            end_reason=end_reason,
        )

        thirty_one_game_view.additional_properties = d
        return thirty_one_game_view

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
