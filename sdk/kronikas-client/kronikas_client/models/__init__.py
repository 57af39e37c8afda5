"""Contains all the data models used in inputs/outputs"""

from .accept import Accept
from .call import Call
from .cheat_call_result import CheatCallResult
from .cheat_game_view import CheatGameView
from .cheat_game_view_status import CheatGameViewStatus
from .cheat_last_play import CheatLastPlay
from .cheat_options import CheatOptions
from .cheat_penalty import CheatPenalty
from .cheat_player_view import CheatPlayerView
from .cheat_round_result import CheatRoundResult
from .cheat_table_view import CheatTableView
from .command_result import CommandResult
from .create_cheat_game import CreateCheatGame
from .create_thirty_one_game import CreateThirtyOneGame
from .created import Created
from .event_page import EventPage
from .exchange import Exchange
from .game_event import GameEvent
from .game_event_data import GameEventData
from .health import Health
from .join_request import JoinRequest
from .joined import Joined
from .keep import Keep
from .kind_info import KindInfo
from .kind_info_kind import KindInfoKind
from .kinds import Kinds
from .list_games_kind import ListGamesKind
from .list_games_status import ListGamesStatus
from .lobby import Lobby
from .lobby_entry import LobbyEntry
from .lobby_entry_kind import LobbyEntryKind
from .lobby_entry_status import LobbyEntryStatus
from .my_hand import MyHand
from .option_info import OptionInfo
from .option_info_type import OptionInfoType
from .pass_ import Pass
from .play import Play
from .problem import Problem
from .problem_errors_type_0_item import ProblemErrorsType0Item
from .show import Show
from .swap import Swap
from .swap_all import SwapAll
from .thirty_one_game_view import ThirtyOneGameView
from .thirty_one_game_view_status import ThirtyOneGameViewStatus
from .thirty_one_options import ThirtyOneOptions
from .thirty_one_player_view import ThirtyOnePlayerView
from .thirty_one_round_result import ThirtyOneRoundResult
from .thirty_one_table_view import ThirtyOneTableView
from .thirty_one_table_view_phase import ThirtyOneTableViewPhase

__all__ = (
    "Accept",
    "Call",
    "CheatCallResult",
    "CheatGameView",
    "CheatGameViewStatus",
    "CheatLastPlay",
    "CheatOptions",
    "CheatPenalty",
    "CheatPlayerView",
    "CheatRoundResult",
    "CheatTableView",
    "CommandResult",
    "CreateCheatGame",
    "Created",
    "CreateThirtyOneGame",
    "EventPage",
    "Exchange",
    "GameEvent",
    "GameEventData",
    "Health",
    "Joined",
    "JoinRequest",
    "Keep",
    "KindInfo",
    "KindInfoKind",
    "Kinds",
    "ListGamesKind",
    "ListGamesStatus",
    "Lobby",
    "LobbyEntry",
    "LobbyEntryKind",
    "LobbyEntryStatus",
    "MyHand",
    "OptionInfo",
    "OptionInfoType",
    "Pass",
    "Play",
    "Problem",
    "ProblemErrorsType0Item",
    "Show",
    "Swap",
    "SwapAll",
    "ThirtyOneGameView",
    "ThirtyOneGameViewStatus",
    "ThirtyOneOptions",
    "ThirtyOnePlayerView",
    "ThirtyOneRoundResult",
    "ThirtyOneTableView",
    "ThirtyOneTableViewPhase",
)
