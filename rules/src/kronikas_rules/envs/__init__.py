"""The environments of the games: one decision by one seat at a time (README, "Environments").

Nothing here is imported by `import kronikas_rules`; this package needs numpy, and its
PettingZoo modules (`cheat_v0`, `thirty_one_v0`) need the `[pettingzoo]` extra.

The shared API (no PettingZoo, numpy only), which the PettingZoo environments, the OpenSpiel
games and the live adapter all build on:

- `Driver(table, encoding, seed)` (`envs.decisions`): a `kronikas_rules.table.Table` played one
  `Decision` (seat, kind) at a time: `current`, `observe(seat)`, `mask(seat)`, `info(seat)`,
  `act(action)`, `rewards()`, `play_out(policies)`.
- `Encoding` (`envs.cheat.ENCODING`, `envs.thirty_one.ENCODING`; `envs.games.encoding_of(kind)`): a
  game's `num_actions`, `action_names`, `decisions(table)`, `observation(info)`,
  `observation_size(players)`, `mask(info)`, `resolve(info, action)` (the command a finished
  decision sends), `action_for(info, command)`, `rewards(table)`, `decision_of(view, answered)`.
- `SeatInfo`: what a policy knows of its seat at a decision: `view`, `events` (its round's,
  redacted), `memory`, `kind`, `picks`, `scratch`, `rng`, `house_command()`.
- `Policy = Callable[[observation dict, SeatInfo], int]`; `house_policy`, `random_policy`.
- `envs.live.LiveSeat`: the same `SeatInfo` and observation from a service's view and events
  (the SDK's `.to_dict()`), and the command dict to send when a decision is complete.
"""

from __future__ import annotations

from kronikas_rules.envs.decisions import (
    Decision,
    Driver,
    Encoding,
    IllegalAction,
    Policy,
    Resolved,
    SeatInfo,
    house_policy,
    place_rewards,
    random_policy,
)
from kronikas_rules.envs.games import encoding_of

__all__ = [
    "Decision",
    "Driver",
    "Encoding",
    "IllegalAction",
    "Policy",
    "Resolved",
    "SeatInfo",
    "encoding_of",
    "house_policy",
    "place_rewards",
    "random_policy",
]
