"""Memory and receipt ids (store/ids.py)."""

from __future__ import annotations

import re
from collections import Counter

from store.ids import new_id


def test_ids_are_a_prefix_and_eight_characters_of_the_alphabet_drawn_evenly():
    made = [new_id("m") for _ in range(20_000)]
    assert all(re.fullmatch(r"m[0-9a-hjkmnp-tv-z]{8}", i) for i in made)
    assert len(set(made)) == len(made)
    counts = Counter(ch for i in made for ch in i[1:])
    assert len(counts) == 32  # every character of the alphabet is used...
    assert max(counts.values()) < 1.2 * min(counts.values())  # ...about as often
    positions = Counter(i[1] for i in made)  # the first character too (the high bits)
    assert len(positions) == 32
