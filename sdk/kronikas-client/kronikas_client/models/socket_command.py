from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.accept import Accept
    from ..models.back import Back
    from ..models.call import Call
    from ..models.exchange import Exchange
    from ..models.keep import Keep
    from ..models.leave import Leave
    from ..models.pass_ import Pass
    from ..models.play import Play
    from ..models.show import Show
    from ..models.swap import Swap
    from ..models.swap_all import SwapAll


T = TypeVar("T", bound="SocketCommand")


@_attrs_define
class SocketCommand:
    """
    Attributes:
        command (Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap | SwapAll): One command;
            `type` chooses it.
        id (str): The command's id, chosen by the client: its `Idempotency-Key` (1–128 printable ASCII characters, `!`
            to `~`), per token, in the same record as HTTP's.
        type_ (Literal['command']):  Default: 'command'.
        if_match (int | None | Unset): Apply only at this version (as `If-Match`); otherwise `version_mismatch`.
    """

    command: Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap | SwapAll
    id: str
    type_: Literal["command"] = "command"
    if_match: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.accept import Accept  # noqa: PLC0415
        from ..models.back import Back  # noqa: PLC0415
        from ..models.call import Call  # noqa: PLC0415
        from ..models.exchange import Exchange  # noqa: PLC0415
        from ..models.keep import Keep  # noqa: PLC0415
        from ..models.leave import Leave  # noqa: PLC0415
        from ..models.pass_ import Pass  # noqa: PLC0415
        from ..models.play import Play  # noqa: PLC0415
        from ..models.swap import Swap  # noqa: PLC0415
        from ..models.swap_all import SwapAll  # noqa: PLC0415

        command: dict[str, Any]
        if isinstance(self.command, Play):
            command = self.command.to_dict()
        elif isinstance(self.command, Call):
            command = self.command.to_dict()
        elif isinstance(self.command, Accept):
            command = self.command.to_dict()
        elif isinstance(self.command, Leave):
            command = self.command.to_dict()
        elif isinstance(self.command, Back):
            command = self.command.to_dict()
        elif isinstance(self.command, Keep):
            command = self.command.to_dict()
        elif isinstance(self.command, Exchange):
            command = self.command.to_dict()
        elif isinstance(self.command, Swap):
            command = self.command.to_dict()
        elif isinstance(self.command, SwapAll):
            command = self.command.to_dict()
        elif isinstance(self.command, Pass):
            command = self.command.to_dict()
        else:
            command = self.command.to_dict()

        id = self.id

        type_ = self.type_

        if_match: int | None | Unset
        if isinstance(self.if_match, Unset):
            if_match = UNSET
        else:
            if_match = self.if_match

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "command": command,
                "id": id,
                "type": type_,
            }
        )
        if if_match is not UNSET:
            field_dict["if_match"] = if_match

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.accept import Accept  # noqa: PLC0415
        from ..models.back import Back  # noqa: PLC0415
        from ..models.call import Call  # noqa: PLC0415
        from ..models.exchange import Exchange  # noqa: PLC0415
        from ..models.keep import Keep  # noqa: PLC0415
        from ..models.leave import Leave  # noqa: PLC0415
        from ..models.pass_ import Pass  # noqa: PLC0415
        from ..models.play import Play  # noqa: PLC0415
        from ..models.show import Show  # noqa: PLC0415
        from ..models.swap import Swap  # noqa: PLC0415
        from ..models.swap_all import SwapAll  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_command(
            data: object,
        ) -> Accept | Back | Call | Exchange | Keep | Leave | Pass | Play | Show | Swap | SwapAll:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_0 = Play.from_dict(data)

                return componentsschemas_command_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_1 = Call.from_dict(data)

                return componentsschemas_command_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_2 = Accept.from_dict(data)

                return componentsschemas_command_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_3 = Leave.from_dict(data)

                return componentsschemas_command_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_4 = Back.from_dict(data)

                return componentsschemas_command_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_5 = Keep.from_dict(data)

                return componentsschemas_command_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_6 = Exchange.from_dict(data)

                return componentsschemas_command_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_7 = Swap.from_dict(data)

                return componentsschemas_command_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_8 = SwapAll.from_dict(data)

                return componentsschemas_command_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_command_type_9 = Pass.from_dict(data)

                return componentsschemas_command_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_command_type_10 = Show.from_dict(data)

            return componentsschemas_command_type_10

        command = _parse_command(d.pop("command"))

        id = d.pop("id")

        type_ = cast(Literal["command"], d.pop("type"))
        if type_ != "command":
            raise ValueError(f"type must match const 'command', got '{type_}'")

        def _parse_if_match(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        if_match = _parse_if_match(d.pop("if_match", UNSET))

        socket_command = cls(
            command=command,
            id=id,
            type_=type_,
            if_match=if_match,
        )

        return socket_command
