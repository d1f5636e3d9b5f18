"""Pictures of a game state (``render_mode="rgb_array"``); the text board is engine.render_text."""

from .picture import BOARD_SHAPE, load_layout, render_board, save_board_png

__all__ = ["BOARD_SHAPE", "load_layout", "render_board", "save_board_png"]
