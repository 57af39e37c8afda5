from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.problem_errors_type_0_item import ProblemErrorsType0Item


T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """
    Attributes:
        code (str):
        detail (str):
        status (int):
        title (str):
        errors (list[ProblemErrorsType0Item] | None | Unset):
        request_id (None | str | Unset):
        type_ (str | Unset):  Default: 'about:blank'.
    """

    code: str
    detail: str
    status: int
    title: str
    errors: list[ProblemErrorsType0Item] | None | Unset = UNSET
    request_id: None | str | Unset = UNSET
    type_: str | Unset = "about:blank"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        detail = self.detail

        status = self.status

        title = self.title

        errors: list[dict[str, Any]] | None | Unset
        if isinstance(self.errors, Unset):
            errors = UNSET
        elif isinstance(self.errors, list):
            errors = []
            for errors_type_0_item_data in self.errors:
                errors_type_0_item = errors_type_0_item_data.to_dict()
                errors.append(errors_type_0_item)

        else:
            errors = self.errors

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "detail": detail,
                "status": status,
                "title": title,
            }
        )
        if errors is not UNSET:
            field_dict["errors"] = errors
        if request_id is not UNSET:
            field_dict["request_id"] = request_id
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.problem_errors_type_0_item import ProblemErrorsType0Item  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        detail = d.pop("detail")

        status = d.pop("status")

        title = d.pop("title")

        def _parse_errors(data: object) -> list[ProblemErrorsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                errors_type_0 = []
                _errors_type_0 = data
                for errors_type_0_item_data in _errors_type_0:
                    errors_type_0_item = ProblemErrorsType0Item.from_dict(errors_type_0_item_data)

                    errors_type_0.append(errors_type_0_item)

                return errors_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ProblemErrorsType0Item] | None | Unset, data)

        errors = _parse_errors(d.pop("errors", UNSET))

        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("request_id", UNSET))

        type_ = d.pop("type", UNSET)

        problem = cls(
            code=code,
            detail=detail,
            status=status,
            title=title,
            errors=errors,
            request_id=request_id,
            type_=type_,
        )

        problem.additional_properties = d
        return problem

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
