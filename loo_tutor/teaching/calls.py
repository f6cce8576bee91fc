"""Announcements in the reader's words: what one says, what one does, and what
the sampled estimate of each comes to (:mod:`loo_tutor.analysis.estimate`)."""

from __future__ import annotations

from fractions import Fraction

from ..analysis.estimate import AnnouncementReview, Estimate
from ..engine.legality import Announcement
from ..engine.state import Announce

__all__ = ["DOING", "SAYING", "estimate_words", "review_words", "sampled_words"]

SAYING = {
    Announcement.STAND: "stand",
    Announcement.PASS: "pass",
    Announcement.MISS: "take the miss",
    Announcement.DEFEND: "defend",
}
"""Each announcement as the reader says it ("take the miss")."""

DOING = {
    Announcement.STAND: "standing",
    Announcement.PASS: "passing",
    Announcement.MISS: "taking the miss",
    Announcement.DEFEND: "defending the pool",
}
"""Each announcement as the thing one does ("passing loses nothing")."""


def estimate_words(found: Estimate) -> str:
    """An announcement's estimated result in plain words, to a tenth of a unit.

    >>> from fractions import Fraction
    >>> from loo_tutor.engine.legality import Announcement
    >>> from loo_tutor.engine.state import Announce
    >>> stand = Estimate(Announce(0, Announcement.STAND), Fraction(-29, 20), -1.8, -1.1, 300, 3.0)
    >>> estimate_words(stand)
    'standing loses about 1.5 units on average here'
    >>> estimate_words(Estimate(Announce(0, Announcement.PASS), Fraction(0), 0.0, 0.0, 300, 0.0))
    'passing loses nothing'
    """
    assert isinstance(found.action, Announce)
    doing = DOING[found.action.announcement]
    if found.mean == 0 and found.low == found.high == 0:
        return f"{doing} loses nothing"
    tenths = int(abs(found.mean) * 10 + Fraction(1, 2))  # to the nearest tenth, halves up
    size = f"{tenths // 10}" if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}"
    if size == "0":
        return f"{doing} comes out about even on average here"
    verb = "wins" if found.mean > 0 else "loses"
    return f"{doing} {verb} about {size} unit{'' if size == '1' else 's'} on average here"


def sampled_words(samples: int, see: str = "can see") -> str:
    """What an announcement's estimate assumes, as the hints and reviews say it:
    ``samples`` deals dealt from what the reader ``see`` (``"can see"`` now,
    ``"could see"`` looking back), played out by rules of thumb."""
    return (f"Over {samples} deals dealt at random from what you {see}, and "
            "played out by every player following rules of thumb")


def review_words(review: AnnouncementReview, samples: int) -> str:
    """The review of one of the reader's announcements in a few sentences."""
    said = SAYING[review.chosen]
    sampled = sampled_words(samples, "could see")
    mine, best = estimate_words(review.mine), estimate_words(review.best)
    if review.lost:
        return f"You chose to {said}, which cost you. {sampled}, {mine}; {best}."
    if review.best is review.mine:
        return f"You chose to {said}, the best choice. {sampled}, {mine}."
    return (f"You chose to {said}, as good as the best choice as far as the "
            f"sampled deals can tell. {sampled}, {mine}; {best}.")
