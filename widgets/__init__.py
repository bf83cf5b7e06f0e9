"""ipywidgets views of penang_lib.

`DealStepper` steps through a deal, `MeldChecker` checks a learner's cards, `PlayTable` plays a
deal against bots, `DealReview` reviews a finished deal from the learner's seat beside the careful
bot's moves, `PuzzleBoard` asks the puzzles mined from real deals, `Quiz` asks questions whose
answers come from the engine, `MatchSheet` scores a match, and `Progress` keeps the learner's
progress in their own browser. Each shows itself with `display(w)` or as a cell's last
expression. `MoveControls` is the part, not shown alone, that makes a learner's moves (the
selection, the move buttons, a joker's readings, the message): `PlayTable` and `PuzzleBoard`
compose it.
"""

from penang_lib.widgets.checker import MeldChecker
from penang_lib.widgets.match import MatchSheet
from penang_lib.widgets.move_controls import MoveControls
from penang_lib.widgets.play import PlayTable
from penang_lib.widgets.progress import Progress
from penang_lib.widgets.puzzle import PuzzleBoard
from penang_lib.widgets.quiz import Quiz
from penang_lib.widgets.review import DealReview
from penang_lib.widgets.stepper import DealStepper

__all__ = [
    "DealReview",
    "DealStepper",
    "MatchSheet",
    "MeldChecker",
    "MoveControls",
    "PlayTable",
    "Progress",
    "PuzzleBoard",
    "Quiz",
]
