"""An arena bot in under 30 lines: `python -m kronikas_bots.arena URL NAME KIND`
registers an entrant, then enters the arena and plays table after table (Ctrl-C stops it)."""

import random
import sys

from kronikas_client import Client
from kronikas_client.arena import Arena, Seated

from kronikas_bots.table import make_bot, play_seat


def main(url: str, name: str, kind: str, *, tables: int | None = None) -> Arena:
    arena = Arena(Client(base_url=url))
    arena.register(name, [kind])  # keep `arena.token` to come back as the same entrant

    def play(seated: Seated) -> None:
        bot = make_bot(seated.kind, "good", random.Random())
        view = play_seat(url, seated.table_id, seated.token, bot)
        print(f"table {view.id}: seat {seated.seat}, winners {view.winners}", flush=True)

    arena.play(play, kind, tables=tables)
    return arena


if __name__ == "__main__":
    main(*sys.argv[1:4])
