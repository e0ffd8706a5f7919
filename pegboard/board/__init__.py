"""The board: layout geometry (hole -> LED, score -> hole and lap), frame rendering and
drawings. No I/O but reading layout files; knows nothing of the game (the painter maps
game state to a :class:`BoardView` of scores).

>>> board = load_layout("two-track-61")
>>> frame = Renderer(board).render(BoardView((TrackView(front=3), TrackView(front=1))))
>>> len(frame.strips), '<circle id="t1h61"' in board_svg(board), board.place(64)
(2, True, Place(hole=4, lap=2))
"""

from pegboard.board.geometry import Hole, Layout, Place, Strip, StripKind, Track
from pegboard.board.layout import layout_names, load_layout
from pegboard.board.render import BoardView, Frame, Power, Renderer, TrackView, lit_holes
from pegboard.board.svg import board_svg, drilling_template

__all__ = [
    "BoardView",
    "Frame",
    "Hole",
    "Layout",
    "Place",
    "Power",
    "Renderer",
    "Strip",
    "StripKind",
    "Track",
    "TrackView",
    "board_svg",
    "drilling_template",
    "layout_names",
    "lit_holes",
    "load_layout",
]
