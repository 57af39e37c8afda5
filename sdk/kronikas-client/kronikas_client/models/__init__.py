"""Contains all the data models used in inputs/outputs"""

from .accept import Accept
from .arena_match import ArenaMatch
from .back import Back
from .call import Call
from .cheat_call_result import CheatCallResult
from .cheat_called import CheatCalled
from .cheat_cards_played import CheatCardsPlayed
from .cheat_cards_played_event import CheatCardsPlayedEvent
from .cheat_cheat_called_event import CheatCheatCalledEvent
from .cheat_deals_opened_event import CheatDealsOpenedEvent
from .cheat_deck_revealed_event import CheatDeckRevealedEvent
from .cheat_game_created import CheatGameCreated
from .cheat_game_created_event import CheatGameCreatedEvent
from .cheat_game_view import CheatGameView
from .cheat_game_view_status import CheatGameViewStatus
from .cheat_last_play import CheatLastPlay
from .cheat_match_ended import CheatMatchEnded
from .cheat_match_ended_event import CheatMatchEndedEvent
from .cheat_my_hand import CheatMyHand
from .cheat_my_hand_rank_counts import CheatMyHandRankCounts
from .cheat_options import CheatOptions
from .cheat_options_reveal import CheatOptionsReveal
from .cheat_penalty import CheatPenalty
from .cheat_penalty_taken import CheatPenaltyTaken
from .cheat_penalty_taken_event import CheatPenaltyTakenEvent
from .cheat_pile_taken import CheatPileTaken
from .cheat_pile_taken_event import CheatPileTakenEvent
from .cheat_play_accepted import CheatPlayAccepted
from .cheat_play_accepted_event import CheatPlayAcceptedEvent
from .cheat_player_joined_event import CheatPlayerJoinedEvent
from .cheat_player_left_event import CheatPlayerLeftEvent
from .cheat_player_view import CheatPlayerView
from .cheat_record_table import CheatRecordTable
from .cheat_record_table_status import CheatRecordTableStatus
from .cheat_round_dealt import CheatRoundDealt
from .cheat_round_dealt_event import CheatRoundDealtEvent
from .cheat_round_ended import CheatRoundEnded
from .cheat_round_ended_event import CheatRoundEndedEvent
from .cheat_round_result import CheatRoundResult
from .cheat_seat_away_event import CheatSeatAwayEvent
from .cheat_seat_back_event import CheatSeatBackEvent
from .cheat_table_options import CheatTableOptions
from .cheat_table_options_reveal_type_0 import CheatTableOptionsRevealType0
from .cheat_table_view import CheatTableView
from .command_result import CommandResult
from .create_cheat_game import CreateCheatGame
from .create_thirty_one_game import CreateThirtyOneGame
from .created import Created
from .deals_opened import DealsOpened
from .deck_revealed import DeckRevealed
from .entrant_created import EntrantCreated
from .entrant_page import EntrantPage
from .event_page import EventPage
from .exchange import Exchange
from .game_record import GameRecord
from .health import Health
from .house_seated import HouseSeated
from .join_request import JoinRequest
from .joined import Joined
from .keep import Keep
from .kind_info import KindInfo
from .kind_info_kind import KindInfoKind
from .kinds import Kinds
from .leaderboard import Leaderboard
from .leaderboard_entry import LeaderboardEntry
from .leave import Leave
from .list_games_kind import ListGamesKind
from .list_games_status import ListGamesStatus
from .lobby import Lobby
from .lobby_entry import LobbyEntry
from .lobby_entry_kind import LobbyEntryKind
from .lobby_entry_status import LobbyEntryStatus
from .opening import Opening
from .option_info import OptionInfo
from .option_info_type import OptionInfoType
from .pass_ import Pass
from .past_views import PastViews
from .play import Play
from .player_joined import PlayerJoined
from .player_left import PlayerLeft
from .pool_rating import PoolRating
from .problem import Problem
from .problem_errors_type_0_item import ProblemErrorsType0Item
from .queue_request import QueueRequest
from .rating_change import RatingChange
from .register_entrant import RegisterEntrant
from .seat_away import SeatAway
from .seat_back import SeatBack
from .set_page import SetPage
from .set_table import SetTable
from .show import Show
from .socket_command import SocketCommand
from .socket_events import SocketEvents
from .socket_heartbeat import SocketHeartbeat
from .socket_hello import SocketHello
from .socket_ping import SocketPing
from .socket_pong import SocketPong
from .socket_problem import SocketProblem
from .socket_result import SocketResult
from .socket_view import SocketView
from .socket_welcome import SocketWelcome
from .socket_welcome_role import SocketWelcomeRole
from .swap import Swap
from .swap_all import SwapAll
from .thirty_one_card_swapped import ThirtyOneCardSwapped
from .thirty_one_card_swapped_event import ThirtyOneCardSwappedEvent
from .thirty_one_deals_opened_event import ThirtyOneDealsOpenedEvent
from .thirty_one_deck_revealed_event import ThirtyOneDeckRevealedEvent
from .thirty_one_game_created import ThirtyOneGameCreated
from .thirty_one_game_created_event import ThirtyOneGameCreatedEvent
from .thirty_one_game_view import ThirtyOneGameView
from .thirty_one_game_view_status import ThirtyOneGameViewStatus
from .thirty_one_hand_exchanged import ThirtyOneHandExchanged
from .thirty_one_hand_exchanged_event import ThirtyOneHandExchangedEvent
from .thirty_one_hand_kept import ThirtyOneHandKept
from .thirty_one_hand_kept_event import ThirtyOneHandKeptEvent
from .thirty_one_hand_shown import ThirtyOneHandShown
from .thirty_one_hand_shown_event import ThirtyOneHandShownEvent
from .thirty_one_hands_swapped import ThirtyOneHandsSwapped
from .thirty_one_hands_swapped_event import ThirtyOneHandsSwappedEvent
from .thirty_one_match_ended import ThirtyOneMatchEnded
from .thirty_one_match_ended_event import ThirtyOneMatchEndedEvent
from .thirty_one_my_hand import ThirtyOneMyHand
from .thirty_one_options import ThirtyOneOptions
from .thirty_one_options_reveal import ThirtyOneOptionsReveal
from .thirty_one_passed import ThirtyOnePassed
from .thirty_one_passed_event import ThirtyOnePassedEvent
from .thirty_one_player_joined_event import ThirtyOnePlayerJoinedEvent
from .thirty_one_player_left_event import ThirtyOnePlayerLeftEvent
from .thirty_one_player_view import ThirtyOnePlayerView
from .thirty_one_record_table import ThirtyOneRecordTable
from .thirty_one_record_table_status import ThirtyOneRecordTableStatus
from .thirty_one_round_dealt import ThirtyOneRoundDealt
from .thirty_one_round_dealt_event import ThirtyOneRoundDealtEvent
from .thirty_one_round_ended import ThirtyOneRoundEnded
from .thirty_one_round_ended_event import ThirtyOneRoundEndedEvent
from .thirty_one_round_result import ThirtyOneRoundResult
from .thirty_one_seat_away_event import ThirtyOneSeatAwayEvent
from .thirty_one_seat_back_event import ThirtyOneSeatBackEvent
from .thirty_one_swap_choice import ThirtyOneSwapChoice
from .thirty_one_table_options import ThirtyOneTableOptions
from .thirty_one_table_options_reveal import ThirtyOneTableOptionsReveal
from .thirty_one_table_view import ThirtyOneTableView
from .thirty_one_table_view_phase import ThirtyOneTableViewPhase
from .ticket import Ticket
from .ticket_status import TicketStatus

__all__ = (
    "Accept",
    "ArenaMatch",
    "Back",
    "Call",
    "CheatCalled",
    "CheatCallResult",
    "CheatCardsPlayed",
    "CheatCardsPlayedEvent",
    "CheatCheatCalledEvent",
    "CheatDealsOpenedEvent",
    "CheatDeckRevealedEvent",
    "CheatGameCreated",
    "CheatGameCreatedEvent",
    "CheatGameView",
    "CheatGameViewStatus",
    "CheatLastPlay",
    "CheatMatchEnded",
    "CheatMatchEndedEvent",
    "CheatMyHand",
    "CheatMyHandRankCounts",
    "CheatOptions",
    "CheatOptionsReveal",
    "CheatPenalty",
    "CheatPenaltyTaken",
    "CheatPenaltyTakenEvent",
    "CheatPileTaken",
    "CheatPileTakenEvent",
    "CheatPlayAccepted",
    "CheatPlayAcceptedEvent",
    "CheatPlayerJoinedEvent",
    "CheatPlayerLeftEvent",
    "CheatPlayerView",
    "CheatRecordTable",
    "CheatRecordTableStatus",
    "CheatRoundDealt",
    "CheatRoundDealtEvent",
    "CheatRoundEnded",
    "CheatRoundEndedEvent",
    "CheatRoundResult",
    "CheatSeatAwayEvent",
    "CheatSeatBackEvent",
    "CheatTableOptions",
    "CheatTableOptionsRevealType0",
    "CheatTableView",
    "CommandResult",
    "CreateCheatGame",
    "Created",
    "CreateThirtyOneGame",
    "DealsOpened",
    "DeckRevealed",
    "EntrantCreated",
    "EntrantPage",
    "EventPage",
    "Exchange",
    "GameRecord",
    "Health",
    "HouseSeated",
    "Joined",
    "JoinRequest",
    "Keep",
    "KindInfo",
    "KindInfoKind",
    "Kinds",
    "Leaderboard",
    "LeaderboardEntry",
    "Leave",
    "ListGamesKind",
    "ListGamesStatus",
    "Lobby",
    "LobbyEntry",
    "LobbyEntryKind",
    "LobbyEntryStatus",
    "Opening",
    "OptionInfo",
    "OptionInfoType",
    "Pass",
    "PastViews",
    "Play",
    "PlayerJoined",
    "PlayerLeft",
    "PoolRating",
    "Problem",
    "ProblemErrorsType0Item",
    "QueueRequest",
    "RatingChange",
    "RegisterEntrant",
    "SeatAway",
    "SeatBack",
    "SetPage",
    "SetTable",
    "Show",
    "SocketCommand",
    "SocketEvents",
    "SocketHeartbeat",
    "SocketHello",
    "SocketPing",
    "SocketPong",
    "SocketProblem",
    "SocketResult",
    "SocketView",
    "SocketWelcome",
    "SocketWelcomeRole",
    "Swap",
    "SwapAll",
    "ThirtyOneCardSwapped",
    "ThirtyOneCardSwappedEvent",
    "ThirtyOneDealsOpenedEvent",
    "ThirtyOneDeckRevealedEvent",
    "ThirtyOneGameCreated",
    "ThirtyOneGameCreatedEvent",
    "ThirtyOneGameView",
    "ThirtyOneGameViewStatus",
    "ThirtyOneHandExchanged",
    "ThirtyOneHandExchangedEvent",
    "ThirtyOneHandKept",
    "ThirtyOneHandKeptEvent",
    "ThirtyOneHandShown",
    "ThirtyOneHandShownEvent",
    "ThirtyOneHandsSwapped",
    "ThirtyOneHandsSwappedEvent",
    "ThirtyOneMatchEnded",
    "ThirtyOneMatchEndedEvent",
    "ThirtyOneMyHand",
    "ThirtyOneOptions",
    "ThirtyOneOptionsReveal",
    "ThirtyOnePassed",
    "ThirtyOnePassedEvent",
    "ThirtyOnePlayerJoinedEvent",
    "ThirtyOnePlayerLeftEvent",
    "ThirtyOnePlayerView",
    "ThirtyOneRecordTable",
    "ThirtyOneRecordTableStatus",
    "ThirtyOneRoundDealt",
    "ThirtyOneRoundDealtEvent",
    "ThirtyOneRoundEnded",
    "ThirtyOneRoundEndedEvent",
    "ThirtyOneRoundResult",
    "ThirtyOneSeatAwayEvent",
    "ThirtyOneSeatBackEvent",
    "ThirtyOneSwapChoice",
    "ThirtyOneTableOptions",
    "ThirtyOneTableOptionsReveal",
    "ThirtyOneTableView",
    "ThirtyOneTableViewPhase",
    "Ticket",
    "TicketStatus",
)
