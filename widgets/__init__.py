"""ipywidgets views of penang_lib.

`DealStepper` steps through a deal, `MeldChecker` checks a learner's cards, `PlayTable` plays a
deal against bots, `Quiz` asks questions whose answers come from the engine, and `MatchSheet`
scores a match. Each shows itself with `display(w)` or as a cell's last expression.
"""

from widgets.checker import MeldChecker
from widgets.match import MatchSheet
from widgets.play import PlayTable
from widgets.quiz import Quiz
from widgets.stepper import DealStepper

__all__ = ["DealStepper", "MatchSheet", "MeldChecker", "PlayTable", "Quiz"]
