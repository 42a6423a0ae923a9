"""Played hands for people and tools: hand-history export (PHH, text, JSON) and the review of decisions."""
