"""Hypothesis strategies for texts made of the reader's own cue words: the texts on which a
faster way of matching a cue could disagree with the plain search it replaces."""

from __future__ import annotations

from hypothesis import strategies as st

from anchors.cue_patterns import SOURCES
from anchors.needles import needles
from benchmarks.prose_corpus import _SALAD


def _cue_words() -> list[str]:
    found: set[str] = set(_SALAD)
    for source in SOURCES.values():
        for one in source if isinstance(source, tuple) else (source,):
            found |= needles(one) or set()
    return sorted(found)


CUE_WORDS = _cue_words()
# Letters that match ASCII ones only case-blind ("ſ" is "s", "K" is "k"), a few others, and
# what separates words and clauses, a newline and a control character included.
ODD = ["ſ", "ı", "İ", "K", "é", "ß", "Σ", "’", "“", "—", "`", "'", '"', "\n", "\t", "\x00"]
GLUE = [" ", " ", " ", "  ", ", ", ". ", "; ", ": ", " - ", " (", ") ", "? ", *ODD]


def _cased(word: str, how: int) -> str:
    return (word, word.upper(), word.capitalize())[how]


words = st.builds(_cased, st.sampled_from(CUE_WORDS), st.integers(0, 2)) | st.text(max_size=4)
# Lower-cased ASCII text of cue words: what the case-sensitive cues are matched against.
lower_ascii = st.lists(
    st.sampled_from(CUE_WORDS) | st.sampled_from([" ", ", ", ". ", "'", "`", "-", "s", "ed"]),
    max_size=20,
).map(lambda parts: " ".join(parts).lower()).filter(str.isascii)
# Any text of cue words, in any case, with odd letters and separators.
texts = st.lists(st.tuples(words, st.sampled_from(GLUE)), max_size=14).map(
    lambda parts: "".join(w + g for w, g in parts)
)
