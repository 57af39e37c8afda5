from enum import StrEnum


class ThirtyOneTableViewPhase(StrEnum):
    DEALER_CHOICE = "dealer_choice"
    LAST_CIRCUIT = "last_circuit"
    TURNS = "turns"

    def __str__(self) -> str:
        return str(self.value)
