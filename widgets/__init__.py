"""ipywidgets views of penang_lib.

`DealStepper` steps through a deal, `MeldChecker` checks a learner's cards, `PlayTable` plays a
deal against bots, `DealReview` reviews a finished deal from the learner's seat beside the careful
bot's moves, `PuzzleBoard` asks the puzzles mined from real deals, `Quiz` asks questions whose
answers come from the engine, `MatchSheet` scores a match, and `Progress` keeps the learner's
progress in their own browser. Each shows itself with `display(w)` or as a cell's last expression.
"""

from widgets.checker import MeldChecker
from widgets.match import MatchSheet
from widgets.play import PlayTable
from widgets.progress import Progress
from widgets.puzzle import PuzzleBoard
from widgets.quiz import Quiz
from widgets.review import DealReview
from widgets.stepper import DealStepper

__all__ = [
    "DealReview",
    "DealStepper",
    "MatchSheet",
    "MeldChecker",
    "PlayTable",
    "Progress",
    "PuzzleBoard",
    "Quiz",
]
