"""Odds tools: exact multi-deck tables, the spec's Monte Carlo, starting hands, outs, pot odds, equity, charts.

Pure functions (no I/O except reading the shipped chart data file).  See
``docs/rules.md`` (section *Odds*) for the decisions behind them.
"""

from .charts import ChartCell, PreflopCharts, build_charts, load_charts, preflop_equity
from .equity import EquityError, EquityResult, PlayerEquity, equity
from .five import five_card_counts, five_card_counts_enumerated, five_card_counts_formula, five_card_probabilities
from .outs import OutsResult, at_least_one, outs_probability, target_faces
from .potodds import break_even_equity, call_ev, showdown_equity
from .ranges import HandRange, RangeError, chart_classes, parse_range
from .seven import exact_distribution, seven_card_counts, seven_card_probabilities
from .simulate import Estimate, SimulationResult, simulate_seven
from .starting import StartingHandStats, class_combinations, class_probability, starting_hand_stats

__all__ = [
    "ChartCell",
    "EquityError",
    "EquityResult",
    "Estimate",
    "HandRange",
    "OutsResult",
    "PlayerEquity",
    "PreflopCharts",
    "RangeError",
    "SimulationResult",
    "StartingHandStats",
    "at_least_one",
    "break_even_equity",
    "build_charts",
    "call_ev",
    "chart_classes",
    "class_combinations",
    "class_probability",
    "equity",
    "exact_distribution",
    "five_card_counts",
    "five_card_counts_enumerated",
    "five_card_counts_formula",
    "five_card_probabilities",
    "load_charts",
    "outs_probability",
    "parse_range",
    "preflop_equity",
    "seven_card_counts",
    "seven_card_probabilities",
    "showdown_equity",
    "simulate_seven",
    "starting_hand_stats",
    "target_faces",
]
