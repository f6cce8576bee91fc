"""The practice session widget, played headlessly by clicking its buttons."""

from __future__ import annotations

import random
import re
import sys
from fractions import Fraction

import pytest

from loo_tutor.analysis.bots import ThumbBot
from loo_tutor.analysis.estimate import estimate_actions
from loo_tutor.analysis.hints import IF_BEST, hint
from loo_tutor.engine.observe import observation
from loo_tutor.engine.state import Phase
from loo_tutor.render.chart import balance_chart
from loo_tutor.teaching.calls import estimate_words
from loo_tutor.widgets.practice import PracticeSession

PLAYERS = ["Anna", "Ben", "Carla", "Dan", "Emil"]


def play_session(practice: PracticeSession, refuse_once: bool = True) -> int:
    """Click through a whole session: a hint at every decision, then the hinted card or the
    first legal announcement. Returns how many illegal cards were tried (and refused)."""
    refused = 0
    while True:
        state = practice.state
        if state.is_terminal():
            if practice.session.is_over():
                return refused
            assert not practice.next_button.disabled
            practice.next_button.click()
            continue
        assert state.current_player() == practice.seat
        assert not practice.hint_button.disabled
        practice.hint_button.click()
        assert practice.hint_text
        if state.phase is Phase.ANNOUNCE:
            assert practice.hint_text.startswith("Best: ")
            calls = practice.call_box.children
            assert [b.description for b in calls]  # only the legal calls are shown
            calls[0].click()
            continue
        legal = state.legal_cards()
        illegal = [c for c in state.held[practice.seat] if c not in legal]
        if refuse_once and illegal and not refused:
            practice.buttons[str(illegal[0])].click()
            assert practice.verdict is not None and not practice.verdict
            assert "Refused" in practice.feedback.value
            assert practice.state is state  # nothing was played
            refused += 1
        best = hint(state).card
        assert practice.hint_text.startswith(f"Play {best.rank_text}")
        practice.buttons[str(best)].click()
        assert practice.verdict


def test_a_seeded_session_plays_to_its_end_headlessly() -> None:
    practice = PracticeSession(PLAYERS, seat="Carla", deals=5, seed=11, samples=100)
    assert practice.error is None
    play_session(practice)
    session = practice.session
    assert session.is_over() and len(session.history) == 5
    assert session.ledger.total() == 0 and session.ledger.pool == 0  # R-CONSERVE, R-SESSION-END
    assert len(practice.reviews) == 5
    for deal, lines in zip(session.history, practice.reviews, strict=True):
        cards = sum(1 for t in deal.tricks for seat, _ in t.plays if seat == practice.seat)
        assert sum(line.what == "card" for line in lines) == cards
        # Playing the hinted card never loses value by the solver's own judgement.
        assert not any(line.lost for line in lines if line.what == "card")
        looed = practice.seat in deal.settlement().looed
        assert any(line.what == "loo" for line in lines) == looed
    page = practice.html
    assert "<svg" in page and "Final balances" in page and "Review" in page
    assert practice.hint_button.disabled
    assert practice.next_button.description == "New session"
    practice.next_button.click()
    assert practice.session is not session and not practice.session.history
    assert not practice.reviews and not practice.state.is_terminal()
    assert practice.next_button.description == "Next deal" and practice.next_button.disabled


def test_the_same_seed_and_clicks_give_the_same_session() -> None:
    first = PracticeSession(PLAYERS, seat=0, deals=2, seed=5, opponents="random", samples=100)
    second = PracticeSession(PLAYERS, seat=0, deals=2, seed=5, opponents="random", samples=100)
    play_session(first, refuse_once=False)
    play_session(second, refuse_once=False)
    assert first.session.balances() == second.session.balances()
    assert [d.hands for d in first.session.history] == [d.hands for d in second.session.history]


def test_a_weak_card_is_marked_in_the_review() -> None:
    # Play the card that is worst for the reader with best play: the review marks it.
    practice = PracticeSession(PLAYERS, seat=1, deals=3, seed=4, samples=100)
    shown = 0
    while True:
        state = practice.state
        if state.is_terminal():
            lost = sum(line.lost for line in practice.reviews[-1])
            if lost:
                assert f"{lost} decision" in practice.review_box.value
                assert practice.review_box.value.count("\u2717 ") == lost
                shown += 1
            if practice.session.is_over():
                break
            practice.next_deal()
        elif state.phase is Phase.ANNOUNCE:
            practice.announce("stand")
        else:
            outcomes = hint(state).outcomes
            practice.play(min(outcomes, key=lambda c: outcomes[c].tricks[1]))
    marked = [line for lines in practice.reviews for line in lines
              if line.lost and line.what == "card"]
    assert len(marked) == 2 and shown
    assert all("lost value" in line.sentence and "was better" in line.sentence for line in marked)


def test_the_button_names_a_call_or_a_card_and_every_hint_states_its_assumption() -> None:
    practice = PracticeSession(PLAYERS, seat="Anna", deals=3, seed=7, samples=20)
    seen = set()
    while not practice.session.is_over() or not practice.state.is_terminal():
        state = practice.state
        if state.is_terminal():
            practice.next_deal()
            continue
        text = practice.ask_hint()
        if state.phase is Phase.ANNOUNCE:
            assert practice.hint_button.description == "Best call and why"
            assert "from what you can see" in text and "rules of thumb" in text
            practice.announce("stand")
        else:
            assert practice.hint_button.description == "Best card and why"
            assert IF_BEST in text
            practice.play(hint(state).card)
        seen.add(state.phase)
    assert seen == {Phase.ANNOUNCE, Phase.PLAY}


def test_the_review_gives_the_deal_as_the_engine_settled_it() -> None:
    # The others here play by rules of thumb, not their best: where that changed the
    # end from what a hint promised, the review says so, with the engine's result.
    departed = 0
    for seed in range(7, 12):
        practice = PracticeSession(PLAYERS, seat="Anna", deals=3, seed=seed, samples=20)
        while not (practice.session.is_over() and practice.state.is_terminal()):
            state = practice.state
            if state.is_terminal():
                practice.next_deal()
            elif state.phase is Phase.ANNOUNCE:
                practice.announce("stand")
            else:
                practice.play(hint(state).card)
        for deal, lines in zip(practice.session.history, practice.reviews, strict=True):
            told = [line.sentence for line in lines if line.what == "result"]
            if 0 not in deal.active:
                assert not told
                continue
            won = sum(1 for trick in deal.tricks if trick.winner == 0)
            looed = 0 in deal.settlement().looed
            assert len(told) == 1
            assert told[0].startswith("In the deal as played you were looed" if looed else
                                      f"In the deal as played you won {WORDS[won]}")
            departed += "Had everyone played their best" in told[0]
            assert not re.search(r"(?<![\d/.])1 units", practice.html)
    assert departed


WORDS = ["no tricks", "one trick", "two tricks", "three tricks"]


def test_an_announcement_hint_prints_the_estimates_numbers() -> None:
    practice = PracticeSession(PLAYERS, seat="Anna", deals=3, seed=7, samples=20)
    while practice.state.phase is not Phase.ANNOUNCE:
        state = practice.state
        if state.is_terminal():
            practice.next_deal()
        else:
            practice.play(hint(state).card)
    text = practice.ask_hint()
    rng = random.Random(f"estimate-7-{len(practice.session.history)}")
    found = estimate_actions(observation(practice.state, practice.seat), samples=20, rng=rng,
                             rollout=ThumbBot())
    assert text.startswith("Best: ") and "Over 20 deals" in text
    assert all(estimate_words(e) in text for e in found)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"opponents": "nobody"}, "not one of thumb, random, sampling"),
    ({"seat": "Zed"}, "not one of the players"),
    ({"players": ["A", "B"]}, "R-SEAT-COUNT"),
])
def test_bad_settings_give_one_line(kwargs: dict[str, object], words: str) -> None:
    practice = PracticeSession(**{"players": PLAYERS, **kwargs})  # type: ignore[arg-type]
    assert practice.error is not None and words in practice.error
    assert "\n" not in practice.error


def test_the_chart_is_drawn_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as in the in-browser pages
    page = balance_chart(["A", "B"], [(Fraction(-3), Fraction(3)), (Fraction(1), Fraction(-1))])
    assert page.count("<polyline") == 2 and "Balances after 2 deals: A +1, B \u22121." in page
    assert 'viewBox="0 0 450 240" width="100%"' in page  # it scales to its column
    assert 'fill="currentColor"' in page  # its words take the page's colour, light or dark
