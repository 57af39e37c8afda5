from enum import StrEnum


class ThirtyOneOptionsReveal(StrEnum):
    MATCH_END = "match_end"
    NEVER = "never"

    def __str__(self) -> str:
        return str(self.value)
