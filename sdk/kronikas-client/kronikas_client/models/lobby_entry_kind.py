from enum import StrEnum


class LobbyEntryKind(StrEnum):
    CHEAT = "cheat"
    THIRTY_ONE = "thirty_one"

    def __str__(self) -> str:
        return str(self.value)
