"""Taiwan Poker (台灣撲克): no-limit Hold'em with 2–6 merged decks, private burns and five of a kind."""

from .pure import prefer_sources

__version__ = "0.1.0"

prefer_sources()  # TAIWAN_POKER_PURE=1: the modules' Python source even where they are built compiled
