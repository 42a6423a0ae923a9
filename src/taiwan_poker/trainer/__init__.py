"""Teaching tools built on the core: the lab table, the practice-room scenarios and the generated drills.

Everything here is pure: randomness is injected, nothing reads a clock or does I/O.
"""
