"""The board: layout geometry (hole -> LED), frame rendering and drawings. No I/O but
reading layout files; knows nothing of the game (the service maps game state to a
:class:`BoardView`).

>>> board = load_layout("two-track-61")
>>> frame = Renderer(board).render(BoardView((TrackView(front=3), TrackView(front=1))))
>>> len(frame.strips), '<circle id="t1h61"' in board_svg(board)
(2, True)
"""

from pegboard.board.layout import Hole, Layout, Strip, Track, layout_names, load_layout
from pegboard.board.render import BoardView, Frame, Power, Renderer, TrackView, lit_holes
from pegboard.board.svg import board_svg, drilling_template

__all__ = [
    "BoardView",
    "Frame",
    "Hole",
    "Layout",
    "Power",
    "Renderer",
    "Strip",
    "Track",
    "TrackView",
    "board_svg",
    "drilling_template",
    "layout_names",
    "lit_holes",
    "load_layout",
]
