"""The course layer: what the lessons teach with, as data judged by the engine; no Jupyter.

- `positions`: a prepared position (hands in card notation, a dealer, the moves played first)
  made into a `Deal` (`position_deal`);
- `quiz`: quiz questions as data, whose right answers the engine gives (`build_question`);
- `puzzles`: puzzles from real deals with one right answer, their kinds, solvers, judging,
  difficulty and file format; `mining` finds them in bot deals;
- `review`: a deal the learner played, turn by turn beside the careful bot, and its short link;
- `progress`: what a learner's browser keeps of their progress;
- `links`: what a lesson page's query string asks for, read in one place.

The widgets (`penang_lib.widgets`) show all of these; nothing here draws anything.
"""
