"""Practise a whole session in one seat against computer players, with hints and reviews."""

from __future__ import annotations

import html
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as widgets

from ..analysis.bots import Bot, ThumbBot
from ..analysis.computer_players import bot_named, play_on
from ..analysis.estimate import Estimate, estimate_actions, review_announcements
from ..analysis.hints import HAD_BEST, avoidable_loo, hint, played_result, review
from ..analysis.solver import Solver
from ..engine.legality import Announcement
from ..engine.observe import PlayerView, observation
from ..engine.session import Session
from ..engine.state import Action, Announce, DealState, Phase, Play, Seat, Verdict
from ..engine.three_card import three_card_deal
from ..render.chart import balance_chart
from ..render.markup import RULES_BASE, ledger_html, narration_html, table_html
from ..teaching.calls import SAYING, estimate_words, review_words, sampled_words
from ._base import SeatWidget, nothing, seat_of, unless_failed
from .announce import announcement_buttons
from .play import hand_box, table_box, update_card_buttons, verdict_html
from .session import DEFAULT_PLAYERS


@dataclass(frozen=True)
class ReviewLine:
    """One of the reader's decisions, judged after the deal.

    Attributes:
        what: "announcement", "card", "loo" (whether a loo could have been avoided),
            or "result" (how the deal as played ended, as the engine settled it).
        lost: whether the decision lost value against the better choice.
        sentence: the judgement in one sentence.
    """

    what: str
    lost: bool
    sentence: str


def _hint_label(phase: Phase) -> str:
    """The hint button's words: a card to play, or a call to make."""
    return "Best call and why" if phase is Phase.ANNOUNCE else "Best card and why"


class PracticeSession(SeatWidget[DealState]):
    """A session of several deals: the reader plays one seat, computer players the rest.

    The engine's :class:`~loo_tutor.engine.session.Session` books antes, deals and
    settlements. Each deal stops at every decision of the reader: the
    announcement buttons or the card buttons; every click goes to the engine,
    which plays it or refuses it with the rule it breaks. The other seats are
    played by computer players (:mod:`loo_tutor.analysis.bots`) that see only their
    own seat's view.

    *Best card and why* (*Best call and why* when the reader is to announce)
    asks for a hint: for a card, the best-play solver
    (:func:`loo_tutor.analysis.hints.hint`), which looks at every hand, as a teacher
    looking over the table would, and takes every player to play their best
    for themselves from then on; for an announcement, the sampling estimate
    of each call (:mod:`loo_tutor.analysis.estimate`), which sees only what the
    reader sees and plays each sampled deal out by rules of thumb. Each hint
    says what it assumes. After each deal a review gives the reader's result as
    the engine settled it, then marks each of the reader's decisions that
    lost value and names the better choice: cards judged with best play, the
    announcement by sampled estimates. The balances after each
    deal are drawn as a chart (:func:`loo_tutor.render.chart.balance_chart`).

    Args:
        players: the names in clockwise seating order (5 to 8).
        seat: the reader's seat, by index or by name.
        deals: how many deals the session lasts.
        seed: seeds the deals, the first dealer and the computer players;
            the same seed and the same clicks give the same session.
        opponents: a name of :data:`~loo_tutor.analysis.computer_players.BOTS`
            (``"thumb"``, ``"random"``, ``"sampling"``) or a bot.
        samples: sampled deals per announcement estimate.
        four_colour: draw diamonds blue and clubs green.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        session: the engine's session, as it stands.
        states: every state of the current (or last) deal so far.
        verdict: the engine's verdict on the reader's last action, or ``None``.
        hint_text: the last hint given, or ``""``.
        reviews: for each finished deal, its review lines.
        buttons: the card buttons, keyed by canonical card text (``"7H"``).
        calls: the announcement buttons, keyed by announcement word.

    >>> practice = PracticeSession(["A", "B", "C", "D", "E"], seat="A", deals=2, seed=4)
    >>> practice.state.phase.value, practice.state.current_player()
    ('play', 0)
    """

    def __init__(self, players: Sequence[str] = DEFAULT_PLAYERS, seat: Seat | str = 0,
                 deals: int = 5, seed: int | None = None, opponents: str | Bot = "thumb",
                 samples: int = 300, four_colour: bool = False,
                 rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.hint_text = ""
        self.reviews: list[list[ReviewLine]] = []
        self.buttons: dict[str, widgets.Button] = {}
        self.calls: dict[str, widgets.Button] = {}
        opened = self.attempt(lambda: self._open_session(players, seat, deals, seed, opponents))
        if opened is None:
            return
        self._bot, self.session, self.seat = opened
        self._seed = seed
        self._sessions = 1
        self._samples = samples
        self._four = four_colour
        self._base = rules_base
        self._solver = Solver()
        self._balances: list[tuple[Fraction, ...]] = []
        self.header = self.part(widgets.HTML)
        self.hand = hand_box(self)
        self.call_box = self.part(widgets.HBox)
        self.calls = announcement_buttons(self, self.announce)
        self.hint_button = self.button(_hint_label(Phase.PLAY),
                                       "A hint for the decision in front of you",
                                       self.ask_hint, icon="lightbulb-o")
        self.next_button = self.button("Next deal", "Book this deal and deal the next one",
                                       self.next_deal, button_style="primary")
        self.feedback = self.said()
        self.story = self.part(widgets.HTML)
        self.table = self.part(widgets.HTML)
        self.review_box = self.part(widgets.HTML)
        self.chart = self.part(widgets.HTML)
        self.ledger = self.part(widgets.HTML)
        self.show(self.header, table_box(self, self.table, self.hand), self.call_box,
                  self.feedback, self.part(widgets.HBox, [self.hint_button, self.next_button]),
                  self.story, self.ledger, self.review_box, self.chart)
        self._rng = random.Random(None if seed is None else f"practice-{seed}")
        self._deal()

    @staticmethod
    def _open_session(players: Sequence[str], seat: Seat | str, deals: int, seed: int | None,
                      opponents: str | Bot) -> tuple[Bot, Session, Seat]:
        """The computer players, the engine's session and the reader's seat.

        Raises:
            LooError: no such computer player, table or seat.
        """
        bot = bot_named(opponents, "opponents")
        session = Session(players, deals, seed)
        return bot, session, seat_of(session.players, seat)

    # -- acting ----------------------------------------------------------------

    def _deal(self) -> None:
        dealt = three_card_deal(self.session.start_deal())  # practice sessions play limited Loo
        self._begin(dealt)

    def play(self, card: object) -> Verdict:
        """Play a card for the reader, as a click on its button does."""
        from ..engine.cards import Card, parse_card

        chosen = card if isinstance(card, Card) else parse_card(str(card))
        return self.take(Play(self.seat, chosen))

    def announce(self, call: Announcement | str) -> Verdict:
        """Make an announcement for the reader, as a click on its button does."""
        return self.take(Announce(self.seat, Announcement(call)))

    def _automatic(self, state: DealState) -> Action | None:
        seat = state.current_player()
        if seat is None or seat == self.seat:
            return None
        return play_on(state, self._bot, self._rng)

    def _advance(self) -> None:
        """After each legal action of the reader (and at a deal's start) the hint
        is spent; the computer players act, and a finished deal is booked."""
        self.hint_text = ""
        super()._advance()
        if self.state.is_terminal():
            self._finish()

    def _finish(self) -> None:
        """Book the finished deal, review the reader's decisions, extend the chart."""
        session = self.session
        session.finish_deal(self.state)
        self._balances.append(tuple(session.ledger.balances[s]
                                    for s in range(len(session.players))))
        self.reviews.append(self._review())
        if session.is_over():
            session.end()

    @unless_failed(nothing)
    def next_deal(self) -> None:
        """Deal the next deal once this one is over; after the last, start a new session."""
        if not self.state.is_terminal():
            return
        if self.session.is_over():
            self.new_session()
        else:
            self._deal()

    @unless_failed(nothing)
    def new_session(self) -> None:
        """Start a new session of as many deals, from the next seed if one was given."""
        old = self.session
        seed = None if self._seed is None else self._seed + self._sessions
        self._sessions += 1
        self.session = Session(old.players, old.deals, seed)
        self.reviews = []
        self._balances = []
        self._deal()

    # -- hints and reviews -------------------------------------------------------

    def ask_hint(self) -> str:
        """The hint for the reader's decision now (also shown under the buttons)."""
        state = self.state
        if state.is_terminal() or state.current_player() != self.seat:
            self.hint_text = "There is no decision of yours to give a hint for just now."
        elif state.phase is Phase.PLAY:
            self.hint_button.description = "Thinking…"
            self.hint_text = hint(state, self._solver).sentence
        else:
            self.hint_button.description = "Estimating…"
            found = self._estimates(observation(state, self.seat))
            best = max(found, key=lambda e: e.mean)
            assert isinstance(best.action, Announce)
            self.hint_text = (f"Best: {SAYING[best.action.announcement]}. "
                              f"{sampled_words(self._samples)}, "
                              + "; ".join(estimate_words(e) for e in found) + ".")
        self._refresh()
        return self.hint_text

    def _estimates(self, view: PlayerView) -> list[Estimate]:
        seed = 0 if self._seed is None else self._seed
        rng = random.Random(f"estimate-{seed}-{len(self.session.history)}")
        return estimate_actions(view, samples=self._samples, rng=rng, rollout=ThumbBot())

    def _review(self) -> list[ReviewLine]:
        """The reader's decisions in the deal just finished, each judged."""
        lines = [ReviewLine("announcement", judged.lost, review_words(judged, self._samples))
                 for judged in review_announcements(self.states, self.seat, self._estimates)]
        cards = review(self.states, self.seat, self._solver)
        for item in cards:
            lost = item.lost > 0 or item.best.tricks[self.seat] > item.played.tricks[self.seat]
            lines.append(ReviewLine("card", lost, f"Trick {item.trick}: {item.sentence}"))
        final = self.state
        if cards:
            lines.append(ReviewLine("result", False, played_result(final, self.seat, cards)))
        if final.collected_by is None and self.seat in final.settlement().looed:
            check = avoidable_loo(self.states, self.seat, self._solver)
            name = final.players[self.seat]
            lines.append(ReviewLine("loo", False, f"Could {name} (you) have avoided the loo? "
                                    + check.sentence))
        return lines

    # -- drawing -----------------------------------------------------------------

    def _my_turn(self) -> bool:
        return self.state.current_player() == self.seat

    def _refresh(self) -> None:
        state = self.state
        session = self.session
        name = state.players[self.seat]
        number = len(session.history) + (not state.is_terminal())
        if state.is_terminal():
            where = ("The session is over." if session.is_over()
                     else "The deal is over: read the review, then deal the next one.")
        elif state.phase is Phase.ANNOUNCE:
            where = "Your turn to announce."
        else:
            verb = "play" if state.trick_cards() else "lead"
            where = f"Your turn to {verb} to trick {len(state.tricks) + 1}."
        self.header.value = (f'<p class="loo-header"><strong>You are {html.escape(name)}.</strong> '
                             f'Deal {number} of {session.deals}. {where}</p>')
        mine = self._my_turn()
        legal_calls = state.legal_announcements() if mine else []
        self.call_box.children = tuple(self.calls[c.value] for c in legal_calls)
        hand = observation(state, self.seat).hand or ()
        playing = mine and state.phase is Phase.PLAY
        update_card_buttons(self, self.hand, self.buttons,
                            hand if state.phase is Phase.PLAY else (), [], playing, self.play,
                            self._four)
        self.hint_button.disabled = not mine
        self.hint_button.description = _hint_label(state.phase)
        over = state.is_terminal() and session.is_over()
        self.next_button.description = "New session" if over else "Next deal"
        self.next_button.tooltip = ("Start a new session of as many deals" if over
                                    else "Book this deal and deal the next one")
        self.next_button.disabled = not state.is_terminal()
        hint_line = (f'<p class="loo-hint" role="status">{html.escape(self.hint_text)}</p>'
                     if self.hint_text else "")
        self.feedback.value = verdict_html(self.verdict, self._base) + hint_line
        self.story.value = "".join(narration_html(n, self._base) for n in self.told)
        self.table.value = table_html(state, self.seat, self._four, base=self._base,
                                      ledger=False, own_hand=playing or bool(hand))
        self.ledger.value = ledger_html(state, self._base) if state.is_terminal() else ""
        self.review_box.value = self._review_html()
        self.chart.value = self._chart_html()

    def _review_html(self) -> str:
        if not self.state.is_terminal() or not self.reviews:
            return ""
        lines = self.reviews[-1]
        if not lines:
            return ('<section class="loo-review"><h4>Review</h4><p>You made no decision in '
                    'this deal.</p></section>')
        items = "".join(
            f'<li class="{"loo-lost" if line.lost else "loo-fine"}">'
            f'{"✗ " if line.lost else "✓ "}{html.escape(line.sentence)}</li>'
            for line in lines if line.what != "result")
        played = "".join(f"<p>{html.escape(line.sentence)}</p>"
                         for line in lines if line.what == "result")
        lost = sum(line.lost for line in lines)
        head = ("Every decision held its value." if not lost else
                f"{lost} decision{'s' if lost > 1 else ''} lost value (marked ✗).")
        return (f'<section class="loo-review"><h4>Review</h4><p>{head} A card is judged by '
                f'what it would have led to {html.escape(HAD_BEST)}; an announcement by sampled '
                f'estimates from what you could see.</p>{played}'
                f'<ul>{items}</ul></section>')

    def _chart_html(self) -> str:
        session = self.session
        chart = balance_chart(session.players, self._balances, highlight=self.seat)
        if not session.is_over():
            return chart
        final = session.balances()
        leaders = session.leaders()
        text = ", ".join(f"{html.escape(n)} {v}" for n, v in final.items())
        return (f'{chart}<p class="loo-final">After the last deal the pool is shared equally. '
                f'Final balances: {text}. Highest: {html.escape(" and ".join(leaders))}.</p>')

    def _render(self) -> str:
        return (f"{self.header.value}{self.feedback.value}{self.story.value}{self.table.value}"
                f"{self.ledger.value}{self.review_box.value}{self.chart.value}")
