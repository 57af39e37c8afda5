"""Contains all the data models used in inputs/outputs"""

from .health import Health
from .problem import Problem
from .problem_errors_type_0_item import ProblemErrorsType0Item

__all__ = (
    "Health",
    "Problem",
    "ProblemErrorsType0Item",
)
