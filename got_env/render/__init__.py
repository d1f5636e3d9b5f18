"""Pictures of a game state (``render_mode="rgb_array"``): the entry points are in
:mod:`got_env.render.picture` (:func:`~got_env.render.picture.render_board`, ``save_board_png``,
``board_svg``), the drawing's parts in the modules beside it; the text board is
got_env.engine.render_text. Nothing is imported here, so that the modules without matplotlib
(``vocabulary``, ``log``) load without it."""
