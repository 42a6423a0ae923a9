"""Preflop strategy from equilibrium: an abstract preflop game, a discounted-CFR solver and the solved tables.

Pure and typed: the solver core does no I/O; the shipped tables are read from
package data.  ``docs/strategy.md`` explains the abstraction, the realisation
model, the multi-way rule, the solve grid and the measured exploitability.
"""
