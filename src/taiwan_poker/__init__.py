"""Taiwan Poker (台灣撲克): no-limit Hold'em with 2–6 merged decks, private burns and five of a kind."""

__version__ = "0.1.0"
