"""The exceptions the engine raises, but for
:class:`~loo_tutor.engine.state.IllegalActionError`, which lives beside the
verdict it carries.

Every error is a :class:`ValueError`, so callers that only care about "bad
input" can catch that one type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import RuleKey


class LooError(ValueError):
    """Base class of every error the loo_tutor package raises."""


class NotationError(LooError):
    """Text that should name a card (or another game value) cannot be read."""


class RuleError(LooError):
    """Values that no deal can have under a rule, e.g. four players for a game of five to eight.

    Args:
        message: what is wrong, in one line.
        rule: the rule the values break; the text shows it in brackets.
    """

    def __init__(self, message: str, rule: RuleKey) -> None:
        super().__init__(f"{message} [{rule.value}]")
        self.rule = rule


class MalformedRecord(LooError):
    """A deal record that does not describe a deal (see CONTRACT.md §2.1).

    The message is one line that names the offending field and the problem.
    """
