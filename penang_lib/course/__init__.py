"""The course layer: lesson positions and quiz questions as data, judged by the engine; no Jupyter.

`positions.position_deal` turns a prepared position (hands in card notation, a dealer, the moves
played first) into a `Deal`; `quiz.build_question` reads one quiz question and asks the engine
which answers are right. The widgets show both; nothing here draws anything.
"""
