"""A whole bot in under 40 lines: `python -m kronikas_bots.sample http://localhost:8000 GAME_ID
[NAME]` (each seat's name must differ from the others at the table). Every call waits out a 429
by its `Retry-After` and is made again (`table.answered`)."""

import sys
import time

from kronikas_client import AuthenticatedClient, Client
from kronikas_client import models as m
from kronikas_client.api.games import get_game, join_game, list_events, send_command
from kronikas_client.proofs import Openings

from kronikas_bots.base import moves
from kronikas_bots.games import VIEWS, game_of
from kronikas_bots.table import answered


def main(url: str, game_id: str, name: str = "sample") -> list[int]:
    request = m.JoinRequest(name=name)
    joined = answered(join_game.sync_detailed, game_id, client=Client(url), body=request).parsed
    assert isinstance(joined, m.Joined), joined  # else a Problem says why (game_full, …)
    me = AuthenticatedClient(base_url=url, token=joined.token)
    proven = Openings()  # checks every opening of a card this seat receives
    while True:
        view = answered(get_game.sync_detailed, game_id, client=me).parsed
        if isinstance(view, m.Problem) and view.status == 503:  # the store away: try again
            time.sleep(1)
            continue
        assert isinstance(view, VIEWS), view  # a table of a game the bots play
        proven.view(view)
        if view.status == "finished":
            if proven.problems:
                print("openings that do not check:", *proven.problems, sep="\n", file=sys.stderr)
            return view.winners
        if view.me and view.turn == view.me.seat and moves(view):
            move = game_of(view.kind).plainest(view)  # e.g. the first card, never a call
            seen = f'"{view.version}"'
            sent = answered(
                send_command.sync_detailed, game_id, client=me, body=move, if_match=seen
            )
            if isinstance(refused := sent.parsed, m.Problem):  # 412: someone was faster; 409: …
                print(f"refused ({refused.code}): {refused.detail}", file=sys.stderr)
        page = answered(list_events.sync_detailed, game_id, client=me, after=view.version, wait=10)
        for event in page.parsed.events if isinstance(page.parsed, m.EventPage) else []:
            proven.observe(event)


if __name__ == "__main__":
    print("winners:", main(*sys.argv[1:4]))
