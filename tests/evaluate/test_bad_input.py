"""Bad input gives a clear error with a stable code (``.code``), never a crash (issue 2, 「Bad input」).

Codes: ``bad_card`` (unknown rank or suit, malformed name, deck number out of
range, card index out of range), ``too_many_copies`` (more copies of a face
than the decks hold, or one physical card twice), ``bad_card_count`` (not 5–7
cards, or a batch that is not N × 5..7), ``bad_decks`` (deck count not 1..8).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from taiwan_poker.cards import Card, Shoe, check_decks, parse_card, parse_cards
from taiwan_poker.errors import CardCountError, CardError, TaiwanPokerError, TooManyCopiesError
from taiwan_poker.evaluate import evaluate, evaluate_batch, hand_value, rank_batch


def code_of(excinfo: pytest.ExceptionInfo[TaiwanPokerError]) -> str:
    err = excinfo.value
    assert err.message and str(err) == err.message
    assert err.to_json() == {"code": err.code, "message": err.message}
    return err.code


@pytest.mark.parametrize("text", ["Xs", "1s", "0h", "Ls", "11h", "Bd", "?c"])
def test_unknown_rank_is_bad_card(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert code_of(info) == "bad_card"
    assert "rank" in info.value.message or "bad card" in info.value.message


@pytest.mark.parametrize("text", ["Ax", "Ka", "2z", "Tt", "10x"])
def test_unknown_suit_is_bad_card(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert code_of(info) == "bad_card"
    assert "suit" in info.value.message


@pytest.mark.parametrize("text", ["", "A", "Asd", "A s", "As:", ":2", "As:2:3", "As:-1", "As: 2", "♠A"])
def test_malformed_card_name_is_bad_card(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert code_of(info) == "bad_card"


@pytest.mark.parametrize("value", [None, 12, ["As"], b"As"])
def test_card_that_is_not_a_string_is_bad_card(value: object) -> None:
    with pytest.raises(CardError) as info:
        parse_card(value)  # type: ignore[arg-type]
    assert code_of(info) == "bad_card"


@pytest.mark.parametrize("text", ["As:0", "As:9", "As:10", "As:99999999999999999999"])
def test_deck_number_out_of_range_is_bad_card(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert code_of(info) == "bad_card"


@pytest.mark.parametrize("text", ["As:²", "As:٣", "As:３"])
def test_non_ascii_digit_deck_number_is_bad_card_not_a_crash(text: str) -> None:
    """'²'.isdigit() is True but int('²') fails: must still be a coded bad_card error."""
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert code_of(info) == "bad_card"


def test_card_names_are_case_insensitive_and_accept_10() -> None:
    """Contract: '10' accepted on input, rank and suit letters case-insensitive."""
    assert parse_cards(["10h", "tH", "aS", "As:2", "KD"], decks=2) == [
        Card(8, 1, 1), Card(8, 1, 2), Card(12, 0, 1), Card(12, 0, 2), Card(11, 2, 1)]


def test_deck_number_beyond_the_shoe_is_bad_card() -> None:
    with pytest.raises(CardError) as info:
        parse_cards(["As:3", "Kd", "Qc", "Jh", "9s"], decks=2)
    assert code_of(info) == "bad_card"


def test_more_copies_than_the_decks_hold_is_too_many_copies() -> None:
    with pytest.raises(TooManyCopiesError) as info:
        parse_cards(["As", "As", "As", "Kd", "Qc"], decks=2)
    assert code_of(info) == "too_many_copies"
    assert "As" in info.value.message
    with pytest.raises(TooManyCopiesError):
        parse_cards(["As", "As", "Kd", "Qc", "Jh"], decks=1)


def test_one_physical_card_named_twice_is_too_many_copies() -> None:
    with pytest.raises(TooManyCopiesError) as info:
        parse_cards(["As:2", "As:2", "Kd", "Qc", "Jh"], decks=3)
    assert code_of(info) == "too_many_copies"
    # a named deck and an unnamed copy that has to take another deck are fine
    assert [c.deck for c in parse_cards(["As", "As:1", "Kd", "Qc", "Jh"], decks=2)][:2] == [2, 1]
    with pytest.raises(TooManyCopiesError):
        parse_cards(["As", "As:1", "As:2", "Qc", "Jh"], decks=2)


def test_default_decks_is_the_smallest_that_allows_the_cards() -> None:
    cards = parse_cards(["As", "As", "As", "Ks", "Ks"])
    assert sorted(c.deck for c in cards if c.face_str == "As") == [1, 2, 3]
    assert max(c.deck for c in parse_cards(["As:5", "Kd", "Qc", "Jh", "9s"])) == 5


@pytest.mark.parametrize("decks", [0, 9, -1, True, 2.0, "2", None])
def test_deck_count_outside_1_to_8_is_bad_decks(decks: object) -> None:
    with pytest.raises(CardError) as info:
        check_decks(decks)
    assert code_of(info) == "bad_decks"
    if decks is not None:
        with pytest.raises(CardError) as info2:
            parse_cards(["As", "Kd", "Qc", "Jh", "9s"], decks=decks)  # type: ignore[arg-type]
        assert info2.value.code == "bad_decks"
    with pytest.raises(CardError):
        Shoe(decks)  # type: ignore[arg-type]


def test_shoe_cannot_deal_more_than_it_holds() -> None:
    import random

    shoe = Shoe(1, random.Random(1))
    shoe.draw(50)
    with pytest.raises(CardError) as info:
        shoe.draw(3)
    assert info.value.code == "shoe_empty"
    assert len(shoe) == 2


@pytest.mark.parametrize("count", [0, 1, 4, 8, 9])
def test_wrong_card_count_is_bad_card_count(count: int) -> None:
    cards = [Card.from_index(i) for i in range(count)]
    for fn in (hand_value, evaluate):
        with pytest.raises(CardCountError) as info:
            fn(cards)
        assert code_of(info) == "bad_card_count"


@pytest.mark.parametrize("shape", [(3, 4), (3, 8), (7,), (2, 3, 7), (0,), (5, 0)])
def test_bad_batch_shape_is_bad_card_count(shape: tuple[int, ...]) -> None:
    arr = np.zeros(shape, dtype=np.int32)
    for fn in (rank_batch, evaluate_batch):
        with pytest.raises(CardCountError) as info:
            fn(arr)
        assert code_of(info) == "bad_card_count"


@pytest.mark.parametrize(
    ("bad", "dtype"), [(416, np.int32), (-1, np.int64), (-1, np.int8), (1000, np.uint16), (2**31, np.uint32),
                       (2**40, np.int64), (2**63, np.uint64)])
def test_batch_index_out_of_range_is_bad_card_naming_the_row(bad: int, dtype: type, batch_kernel: str) -> None:
    arr = np.tile(np.arange(7, dtype=dtype), (5, 1))
    arr[3, 2] = np.array(bad).astype(dtype)
    with pytest.raises(CardError) as info:
        rank_batch(arr)
    assert code_of(info) == "bad_card"
    assert "row 3" in info.value.message


def test_batch_bad_index_found_in_any_thread_chunk(batch_kernel: str) -> None:
    arr = np.tile(np.arange(7, dtype=np.int32), (100_000, 1))
    arr[99_999, 6] = 416
    with pytest.raises(CardError) as info:
        rank_batch(arr, threads=2)
    assert "row 99999" in info.value.message
    arr[99_999, 6] = 6
    arr[10, 0] = -5
    with pytest.raises(CardError) as info:
        rank_batch(arr, threads=2)
    assert "row 10" in info.value.message


def test_batch_accepts_python_lists_and_empty_batches(batch_kernel: str) -> None:
    values = rank_batch([[48, 49, 50, 51, 44]])
    assert values.tolist() == [hand_value([Card.from_index(i) for i in (48, 49, 50, 51, 44)])]
    assert rank_batch(np.zeros((0, 7), dtype=np.int32)).shape == (0,)


def test_card_index_out_of_range_is_bad_card() -> None:
    for index in (-1, 416):
        with pytest.raises(CardError) as info:
            Card.from_index(index)
        assert info.value.code == "bad_card"


@given(st.text(max_size=8))
def test_any_text_parses_or_fails_with_a_coded_error(text: str) -> None:
    """Fuzz: parse_card never raises anything but a TaiwanPokerError."""
    try:
        spec = parse_card(text)
    except TaiwanPokerError as exc:
        assert exc.code == "bad_card"
        assert type(exc) is CardError
    else:
        assert 0 <= spec.rank <= 12 and 0 <= spec.suit <= 3
        assert spec.deck is None or 1 <= spec.deck <= 8


@given(st.from_regex(r"\A(10|[2-9TJQKAtjqka])[shdcSHDC](:[0-9]{1,2})?\Z"))
def test_every_well_formed_name_round_trips(text: str) -> None:
    try:
        spec = parse_card(text)
    except CardError as exc:
        assert exc.code == "bad_card"
        assert ":" in text  # only the deck number may be out of range
        return
    assert parse_card(str(spec)) == spec
