"""AGoT's public log, under its older name: it lives in :mod:`.got_events` (named for its game,
as the terminal view of every game other than AGoT is :mod:`.text_view`)."""

from .got_events import SECRET_WORDS, PublicLog

__all__ = ["SECRET_WORDS", "PublicLog"]
