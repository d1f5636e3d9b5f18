"""AGoT's board view, under its older name: it lives in :mod:`.got_view` (named for its game;
the terminal view of every other game is :mod:`.text_view`)."""

from .got_view import (
    HOUSE_STYLE,
    LEGEND,
    board,
    card_label,
    describe_context,
    house_text,
    public_combat,
    seen_orders,
    seen_wildling_top,
    unit_letters,
)

__all__ = ["HOUSE_STYLE", "LEGEND", "board", "card_label", "describe_context", "house_text",
           "public_combat", "seen_orders", "seen_wildling_top", "unit_letters"]
