"""Pictures of a War of the Ring position (``render_mode="rgb_array"``); the text view is
:func:`wotr_env.engine.text.text`."""

from .layout import Layout, board_layout, check_layout, read_layout
from .picture import picture, save_png

__all__ = ["Layout", "board_layout", "check_layout", "picture", "read_layout", "save_png"]
