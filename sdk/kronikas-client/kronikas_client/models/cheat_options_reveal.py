from enum import StrEnum


class CheatOptionsReveal(StrEnum):
    MATCH_END = "match_end"
    NEVER = "never"

    def __str__(self) -> str:
        return str(self.value)
