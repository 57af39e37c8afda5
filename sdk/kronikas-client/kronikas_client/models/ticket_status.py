from enum import StrEnum


class TicketStatus(StrEnum):
    IDLE = "idle"
    SEATED = "seated"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
