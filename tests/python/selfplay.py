"""python-chess, a real UCI client, drives Alea with EngineRolls through complete freedom games
against itself: every bestmove must be a legal chess move to python-chess, and every game must
end by a rule of the variant (checkmate, stalemate, insufficient material, threefold repetition,
the fifty-move rule).

Usage: python3 tests/python/selfplay.py PATH_TO_ALEA [GAMES] [CHESS960_GAMES]
"""

import random
import sys

import chess
import chess.engine

MAX_PLIES = 1500


class FreedomBoard(chess.Board):
    """A chess board that tells the engine its rules are freedom's: python-chess sends the board's
    `uci_variant` as UCI_Variant. A Freedom game is a legal chess game, so the chess rules of the
    board check every move."""

    uci_variant = "freedom"


def ended_by_rule(board: chess.Board) -> str | None:
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient material"
    if board.is_repetition(3):
        return "threefold repetition"
    if board.halfmove_clock >= 100:
        return "fifty-move rule"
    return None


def play(engine_path: str, game: int, chess960: bool) -> str:
    if chess960:
        board = FreedomBoard.from_chess960_pos(random.Random(game).randrange(960))
    else:
        board = FreedomBoard()
    with chess.engine.SimpleEngine.popen_uci([engine_path]) as engine:
        engine.configure({"EngineRolls": True, "Seed": 1000 + game})
        while len(board.move_stack) < MAX_PLIES:
            result = engine.play(board, chess.engine.Limit(depth=1))
            if result.move is None:
                reason = ended_by_rule(board)
                assert reason, f"game {game}: no move, but no rule ends {board.fen()}"
                return reason
            assert result.move in board.legal_moves, f"game {game}: illegal {result.move} in {board.fen()}"
            board.push(result.move)
        raise AssertionError(f"game {game}: still going after {MAX_PLIES} plies: {board.fen()}")


def main() -> int:
    engine_path = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    games960 = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    endings: dict[str, int] = {}
    for i in range(games + games960):
        reason = play(engine_path, i, chess960=i >= games)
        endings[reason] = endings.get(reason, 0) + 1
        print(f"game {i + 1}: {reason}", flush=True)
    print(f"{games + games960} passed, 0 failed: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
