"""Preflop strategy from equilibrium: an abstract preflop game, a discounted-CFR solver and the solved tables.

Pure and typed: the solver core does no I/O; the shipped tables are read from
package data.  ``docs/strategy.md`` explains the abstraction, the realisation
model, the multi-way rule, the solve grid and the measured exploitability.

Beside the solver, the strategy maths the bots and the coach share (the coach
and the review never import the bots): ``seat`` (a seat's typed view, built
from its browser view only), ``strength`` (starting-hand strength by physical
face pair), ``reading`` (opponents' ranges read from their actions),
``estimate`` (equity against weighted ranges on physical cards) and
``thresholds`` (the equity lines for betting and raising for value).
"""
