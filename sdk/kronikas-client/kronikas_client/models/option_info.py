from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.option_info_type import OptionInfoType
from ..types import UNSET, Unset

T = TypeVar("T", bound="OptionInfo")


@_attrs_define
class OptionInfo:
    """
    Attributes:
        default (Any):
        name (str):
        type_ (OptionInfoType):
        choices (list[str] | None | Unset):
        description (None | str | Unset):
        max_items (int | None | Unset):
        maximum (int | None | Unset):
        min_items (int | None | Unset):
        minimum (int | None | Unset):
        nullable (bool | Unset):  Default: False.
    """

    default: Any
    name: str
    type_: OptionInfoType
    choices: list[str] | None | Unset = UNSET
    description: None | str | Unset = UNSET
    max_items: int | None | Unset = UNSET
    maximum: int | None | Unset = UNSET
    min_items: int | None | Unset = UNSET
    minimum: int | None | Unset = UNSET
    nullable: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        default = self.default

        name = self.name

        type_ = self.type_.value

        choices: list[str] | None | Unset
        if isinstance(self.choices, Unset):
            choices = UNSET
        elif isinstance(self.choices, list):
            choices = self.choices

        else:
            choices = self.choices

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        max_items: int | None | Unset
        if isinstance(self.max_items, Unset):
            max_items = UNSET
        else:
            max_items = self.max_items

        maximum: int | None | Unset
        if isinstance(self.maximum, Unset):
            maximum = UNSET
        else:
            maximum = self.maximum

        min_items: int | None | Unset
        if isinstance(self.min_items, Unset):
            min_items = UNSET
        else:
            min_items = self.min_items

        minimum: int | None | Unset
        if isinstance(self.minimum, Unset):
            minimum = UNSET
        else:
            minimum = self.minimum

        nullable = self.nullable

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "default": default,
                "name": name,
                "type": type_,
            }
        )
        if choices is not UNSET:
            field_dict["choices"] = choices
        if description is not UNSET:
            field_dict["description"] = description
        if max_items is not UNSET:
            field_dict["max_items"] = max_items
        if maximum is not UNSET:
            field_dict["maximum"] = maximum
        if min_items is not UNSET:
            field_dict["min_items"] = min_items
        if minimum is not UNSET:
            field_dict["minimum"] = minimum
        if nullable is not UNSET:
            field_dict["nullable"] = nullable

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        default = d.pop("default")

        name = d.pop("name")

        type_ = OptionInfoType(d.pop("type"))

        def _parse_choices(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                choices_type_0 = cast(list[str], data)

                return choices_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        choices = _parse_choices(d.pop("choices", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_max_items(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_items = _parse_max_items(d.pop("max_items", UNSET))

        def _parse_maximum(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        maximum = _parse_maximum(d.pop("maximum", UNSET))

        def _parse_min_items(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_items = _parse_min_items(d.pop("min_items", UNSET))

        def _parse_minimum(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        minimum = _parse_minimum(d.pop("minimum", UNSET))

        nullable = d.pop("nullable", UNSET)

        option_info = cls(
            default=default,
            name=name,
            type_=type_,
            choices=choices,
            description=description,
            max_items=max_items,
            maximum=maximum,
            min_items=min_items,
            minimum=minimum,
            nullable=nullable,
        )

        option_info.additional_properties = d
        return option_info

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
