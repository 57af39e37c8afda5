from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ticket_status import TicketStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="Ticket")


@_attrs_define
class Ticket:
    """
    Attributes:
        status (TicketStatus):
        kind (None | str | Unset):
        players (int | None | Unset):
        seat (int | None | Unset):
        set_id (None | str | Unset):
        since (None | str | Unset):
        table_id (None | str | Unset):
        token (None | str | Unset):
    """

    status: TicketStatus
    kind: None | str | Unset = UNSET
    players: int | None | Unset = UNSET
    seat: int | None | Unset = UNSET
    set_id: None | str | Unset = UNSET
    since: None | str | Unset = UNSET
    table_id: None | str | Unset = UNSET
    token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        else:
            kind = self.kind

        players: int | None | Unset
        if isinstance(self.players, Unset):
            players = UNSET
        else:
            players = self.players

        seat: int | None | Unset
        if isinstance(self.seat, Unset):
            seat = UNSET
        else:
            seat = self.seat

        set_id: None | str | Unset
        if isinstance(self.set_id, Unset):
            set_id = UNSET
        else:
            set_id = self.set_id

        since: None | str | Unset
        if isinstance(self.since, Unset):
            since = UNSET
        else:
            since = self.since

        table_id: None | str | Unset
        if isinstance(self.table_id, Unset):
            table_id = UNSET
        else:
            table_id = self.table_id

        token: None | str | Unset
        if isinstance(self.token, Unset):
            token = UNSET
        else:
            token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if players is not UNSET:
            field_dict["players"] = players
        if seat is not UNSET:
            field_dict["seat"] = seat
        if set_id is not UNSET:
            field_dict["set_id"] = set_id
        if since is not UNSET:
            field_dict["since"] = since
        if table_id is not UNSET:
            field_dict["table_id"] = table_id
        if token is not UNSET:
            field_dict["token"] = token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = TicketStatus(d.pop("status"))

        def _parse_kind(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        def _parse_players(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        players = _parse_players(d.pop("players", UNSET))

        def _parse_seat(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seat = _parse_seat(d.pop("seat", UNSET))

        def _parse_set_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        set_id = _parse_set_id(d.pop("set_id", UNSET))

        def _parse_since(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        since = _parse_since(d.pop("since", UNSET))

        def _parse_table_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        table_id = _parse_table_id(d.pop("table_id", UNSET))

        def _parse_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        token = _parse_token(d.pop("token", UNSET))

        ticket = cls(
            status=status,
            kind=kind,
            players=players,
            seat=seat,
            set_id=set_id,
            since=since,
            table_id=table_id,
            token=token,
        )

        ticket.additional_properties = d
        return ticket

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
