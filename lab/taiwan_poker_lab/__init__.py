"""The lab: what measures and builds the product's strategy, apart from the product (issue 50).

* :mod:`.arena` plays policies against each other (heads-up and six seats), with :mod:`.luck`'s all-in and
  run-out adjustment, and :mod:`.lbr` (local best response) as the exploitability yardstick;
* :mod:`.exploiters` are the opponents written to beat a leak each (the bully, the jammer, …);
* :mod:`.params_file` reads and writes Strong's post-flop parameter set (``strategy/params.py``) as JSON: an
  experiment is a parameter file (``benchmarks/bench_bots.py --params FILE``, ``benchmarks/lbr_paired.py``);
* :mod:`.lbr_lines` logs LBR's hands against a level and splits its winnings by line (a diagnostic);
* :mod:`.cfr` is the offline preflop solver (discounted CFR) behind the shipped tables, and :mod:`.calibrate`
  fits the multi-way payoff model it solves with;
* :mod:`.resolve_bench` measures the heads-up river re-solver (``taiwan_poker.strategy.resolve``, issue 50 item
  2): its time, its exploitability and how far it moves when a read moves.

The product (``taiwan_poker``) never imports this package and its wheel does not hold it; the tests, the
benchmarks and ``scripts/`` do (``python3 dev.py`` puts ``lab/`` on the virtual environment's path).
"""
