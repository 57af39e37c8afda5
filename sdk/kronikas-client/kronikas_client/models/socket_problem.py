from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.problem import Problem


T = TypeVar("T", bound="SocketProblem")


@_attrs_define
class SocketProblem:
    """
    Attributes:
        id (None | str): The command's id; null for any other message.
        problem (Problem):
        retry_after (int | None): Seconds to wait (on 429 and 503).
        type_ (Literal['problem']):  Default: 'problem'.
    """

    id: None | str
    problem: Problem
    retry_after: int | None
    type_: Literal["problem"] = "problem"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id: None | str
        id = self.id

        problem = self.problem.to_dict()

        retry_after: int | None
        retry_after = self.retry_after

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "problem": problem,
                "retry_after": retry_after,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.problem import Problem  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        id = _parse_id(d.pop("id"))

        problem = Problem.from_dict(d.pop("problem"))

        def _parse_retry_after(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        retry_after = _parse_retry_after(d.pop("retry_after"))

        type_ = cast(Literal["problem"], d.pop("type"))
        if type_ != "problem":
            raise ValueError(f"type must match const 'problem', got '{type_}'")

        socket_problem = cls(
            id=id,
            problem=problem,
            retry_after=retry_after,
            type_=type_,
        )

        socket_problem.additional_properties = d
        return socket_problem

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
