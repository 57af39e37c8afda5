"""What a read costs (docs/api.md, Rate limits): one, and one more per 50 events it carries."""

from __future__ import annotations

from kronikas.application.queries import READ_COST_EVENTS, read_cost
from kronikas.application.wire import EVENT_PAGE
from kronikas.config import Settings


def test_a_view_or_an_empty_page_costs_one() -> None:
    assert read_cost(0) == 1
    assert read_cost(-3) == 1, "a page asked for after the table's version carries nothing"


def test_a_page_costs_one_more_per_fifty_events() -> None:
    assert READ_COST_EVENTS == 50
    assert [read_cost(n) for n in (1, 49, 50, 99, 100, 499)] == [1, 1, 2, 2, 3, 10]
    assert read_cost(EVENT_PAGE) == 11


def test_a_full_page_costs_well_below_every_default_burst() -> None:
    # A bucket gives at most its burst at once: a read must be able to be paid from a full one.
    defaults = Settings()
    for burst in (defaults.rate_burst, defaults.read_burst, defaults.address_burst):
        assert read_cost(EVENT_PAGE) * 3 <= burst
