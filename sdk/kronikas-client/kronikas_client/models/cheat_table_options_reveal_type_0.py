from enum import StrEnum


class CheatTableOptionsRevealType0(StrEnum):
    MATCH_END = "match_end"
    NEVER = "never"

    def __str__(self) -> str:
        return str(self.value)
