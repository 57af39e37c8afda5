from enum import StrEnum


class KindInfoKind(StrEnum):
    CHEAT = "cheat"
    THIRTY_ONE = "thirty_one"

    def __str__(self) -> str:
        return str(self.value)
