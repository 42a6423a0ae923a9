"""The hand evaluator: one set of tables, a scalar face for the engine and a batch face for the odds tools."""

from .batch import categories_of, evaluate_batch, rank_batch
from .categories import CATEGORIES, DEFAULT_RANKING, Category, Ranking
from .scalar import HandValue, evaluate, evaluate_brute_force, hand_value

__all__ = [
    "CATEGORIES",
    "DEFAULT_RANKING",
    "Category",
    "HandValue",
    "Ranking",
    "categories_of",
    "evaluate",
    "evaluate_batch",
    "evaluate_brute_force",
    "hand_value",
    "rank_batch",
]
