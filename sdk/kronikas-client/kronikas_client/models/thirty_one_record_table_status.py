from enum import StrEnum


class ThirtyOneRecordTableStatus(StrEnum):
    FINISHED = "finished"
    OPEN = "open"
    PLAYING = "playing"

    def __str__(self) -> str:
        return str(self.value)
