"""A whole bot in under 30 lines: `python -m kronikas_bots.sample http://localhost:8000 GAME_ID
[NAME]` (each seat's name must differ from the others at the table)."""

import sys
import time

from kronikas_client import AuthenticatedClient, Client
from kronikas_client import models as m
from kronikas_client.api.games import get_game, join_game, list_events, send_command

from kronikas_bots.base import moves
from kronikas_bots.games import VIEWS, game_of


def main(url: str, game_id: str, name: str = "sample") -> list[int]:
    joined = join_game.sync(game_id, client=Client(base_url=url), body=m.JoinRequest(name=name))
    assert isinstance(joined, m.Joined), joined  # else a Problem says why (game_full, …)
    me = AuthenticatedClient(base_url=url, token=joined.token)
    while True:
        view = get_game.sync(game_id, client=me)
        if isinstance(view, m.Problem) and view.status in (429, 503):  # too fast, or Redis away
            time.sleep(1)  # the answer's Retry-After; nothing changed: try again
            continue
        assert isinstance(view, VIEWS), view  # a table of a game the bots play
        if view.status == "finished":
            return view.winners
        if view.me and view.turn == view.me.seat and moves(view):
            move = game_of(view.kind).plainest(view)  # e.g. the first card, never a call
            answer = send_command.sync(game_id, client=me, body=move, if_match=f'"{view.version}"')
            if isinstance(answer, m.Problem):  # 412: someone was faster; 409: the rules said no
                print(f"refused ({answer.code}): {answer.detail}", file=sys.stderr)
        list_events.sync(game_id, client=me, after=view.version, wait=10)  # sleep until news


if __name__ == "__main__":
    print("winners:", main(*sys.argv[1:4]))
