"""A whole bot in under 30 lines: `python -m kronikas_bots.sample http://localhost:8000 GAME_ID`."""

import sys

from kronikas_client import AuthenticatedClient, Client
from kronikas_client import models as m
from kronikas_client.api.games import get_game, join_game, list_events, send_command


def main(url: str, game_id: str, name: str = "sample") -> list[int]:
    joined = join_game.sync(game_id, client=Client(base_url=url), body=m.JoinRequest(name=name))
    assert isinstance(joined, m.Joined), joined  # else a Problem says why (game_full, …)
    me = AuthenticatedClient(base_url=url, token=joined.token)
    while True:
        view = get_game.sync(game_id, client=me)
        if isinstance(view, m.Problem) and view.status == 503:  # nothing changed: try again
            continue
        assert isinstance(view, m.CheatGameView | m.ThirtyOneGameView), view
        if view.status.value == "finished":
            return view.winners
        legal = view.legal or []
        if view.me and view.turn == view.me.seat and legal:
            move: m.Play | m.Accept | m.Keep | m.Pass | m.Show = m.Show()
            if isinstance(view, m.CheatGameView):  # always the first card, never a call
                move = m.Play(cards=view.me.hand[:1]) if "play" in legal else m.Accept()
            elif "keep" in legal or "pass" in legal:
                move = m.Keep() if "keep" in legal else m.Pass()
            answer = send_command.sync(game_id, client=me, body=move, if_match=f'"{view.version}"')
            if isinstance(answer, m.Problem):  # 412: someone was faster; 409: the rules said no
                print(f"refused ({answer.code}): {answer.detail}", file=sys.stderr)
        list_events.sync(game_id, client=me, after=view.version, wait=10)  # sleep until news


if __name__ == "__main__":
    print("winners:", main(sys.argv[1], sys.argv[2]))
