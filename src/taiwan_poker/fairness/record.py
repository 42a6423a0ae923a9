"""A hand's fairness record as it is exported, and its check (the CLI's ``verify`` and the tests; the browser's
verifier, ``web/static/js/fairness.js``, checks the same record the same way).

A record::

    {"v": 1, "decks": 6, "hand_id": "hand-3", "size": 312, "root": hex, "seed_hash": hex,
     "openings": [{"position": 0, "card": "As:2", "salt": hex, "path": [hex, ...]}, ...],
     "player_seeds": {"0": hex, ...},          # once the hand is dealt
     "server_seed": hex}                        # once the match is over (unless the table never reveals)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, parse_card
from ..errors import TaiwanPokerError
from .shoe import CommittedShoe, Opening, seed_commitment, verify_opening

RECORD_VERSION = 1


class BadRecord(TaiwanPokerError):
    """A fairness record that cannot be read."""

    code = "bad_record"


def _hex(value: object, what: str) -> bytes:
    if not isinstance(value, str):
        raise BadRecord(f"{what} must be a hex string", field=what)
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise BadRecord(f"{what} is not hex", field=what) from None


def _card(label: object) -> Card:
    if not isinstance(label, str) or ":" not in label:
        raise BadRecord(f"a card is written As:2, not {label!r}", field="card")
    spec = parse_card(label)
    if spec.deck is None:
        raise BadRecord(f"a card is written As:2, not {label!r}", field="card")
    return Card(spec.rank, spec.suit, spec.deck)


def opening_from_json(obj: Mapping[str, Any]) -> Opening:
    position = obj.get("position")
    path = obj.get("path")
    if not isinstance(position, int) or isinstance(position, bool) or not isinstance(path, list):
        raise BadRecord("an opening has a position and a path", field="openings")
    return Opening(position, _card(obj.get("card")), _hex(obj.get("salt"), "salt"),
                   tuple(_hex(h, "path") for h in path))


@dataclass
class Report:
    """What a check found: each opening, the server's seed against its commitment, the whole shoe."""

    hand_id: str
    openings: list[tuple[int, str, bool]] = field(default_factory=list)
    seed: bool | None = None  # None: not revealed (yet)
    shoe: bool | None = None  # the shoe from the seeds gives the committed root and the opened cards
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"hand_id": self.hand_id, "ok": self.ok, "seed": self.seed, "shoe": self.shoe,
                "openings": [{"position": p, "card": c, "ok": ok} for p, c, ok in self.openings],
                "problems": self.problems}


def verify_record(record: Mapping[str, Any]) -> Report:
    """Check a record: every opening against the root; once the seeds are in it, the seed against its commitment
    and the whole shoe against the root and every opened card."""
    if record.get("v") != RECORD_VERSION:
        raise BadRecord("not a fairness record (v 1)", field="v")
    hand_id, decks, size = record.get("hand_id"), record.get("decks"), record.get("size")
    if not isinstance(hand_id, str) or not isinstance(decks, int) or not isinstance(size, int):
        raise BadRecord("a record names its hand_id, decks and size", field="hand_id")
    root = _hex(record.get("root"), "root")
    report = Report(hand_id)
    openings = [opening_from_json(o) for o in record.get("openings") or []]
    for o in openings:
        good = verify_opening(o, size, root)
        report.openings.append((o.position, o.card.label, good))
        if not good:
            report.problems.append(f"the card at position {o.position} ({o.card.label}) does not open the root")
    server_seed = record.get("server_seed")
    if server_seed is None:
        return report
    seed = _hex(server_seed, "server_seed")
    report.seed = seed_commitment(seed) == _hex(record.get("seed_hash"), "seed_hash")
    if not report.seed:
        report.problems.append("the server's seed does not match the hash published before the deal")
    seeds_json = record.get("player_seeds") or {}
    if not isinstance(seeds_json, dict):
        raise BadRecord("player_seeds maps seats to hex seeds", field="player_seeds")
    seeds = {int(k): _hex(v, "player_seeds") for k, v in seeds_json.items()}
    shoe = CommittedShoe.derive(decks, seed, hand_id, seeds)
    cards_match = all(shoe.cards[o.position] == o.card for o in openings if 0 <= o.position < len(shoe.cards))
    report.shoe = shoe.root == root and len(shoe.cards) == size and cards_match
    if not report.shoe:
        report.problems.append("the shoe recomputed from the seeds is not the one committed before the deal")
    return report


def records_in(document: Any) -> list[Mapping[str, Any]]:
    """Every fairness record in an exported hand, match or bare record (JSON already parsed)."""
    if isinstance(document, dict):
        if document.get("v") == RECORD_VERSION and "root" in document:
            return [document]
        if isinstance(document.get("fairness"), dict):
            return [document["fairness"]]
        hands = document.get("hands")
        if isinstance(hands, list):
            return [r for h in hands for r in records_in(h)]
    if isinstance(document, list):
        return [r for h in document for r in records_in(h)]
    return []


def record(shoe: CommittedShoe, decks: int, hand_id: str, seed_hash: bytes, positions: list[int],
           player_seeds: Mapping[int, bytes] | None = None, server_seed: bytes | None = None) -> dict[str, Any]:
    """A record of ``shoe`` opening ``positions`` (and, when given, the seeds)."""
    out: dict[str, Any] = {"v": RECORD_VERSION, "decks": decks, "hand_id": hand_id, "size": len(shoe.cards),
                           "root": shoe.root.hex(), "seed_hash": seed_hash.hex(),
                           "openings": [shoe.open(p).to_json() for p in sorted(set(positions))]}
    if player_seeds is not None:
        out["player_seeds"] = {str(k): v.hex() for k, v in sorted(player_seeds.items())}
    if server_seed is not None:
        out["server_seed"] = server_seed.hex()
    return out
