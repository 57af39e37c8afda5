from enum import StrEnum


class OptionInfoType(StrEnum):
    BOOLEAN = "boolean"
    INTEGER = "integer"
    INTEGER_LIST = "integer_list"
    STRING = "string"

    def __str__(self) -> str:
        return str(self.value)
