"""The strategy lab: simulations that put the beginner tips to the test.

Run ``python -m loo_tutor.analysis.lab`` to play every experiment again and rewrite the
saved results the book shows (``book/_data/strategy-lab.json``, the tables in
``book/_data/strategy-*.md`` and the figures in ``book/figures/strategy-*.svg``).
Everything is seeded, so the same command writes the same files; a bar on
standard error shows progress. ``--scale 0.1`` runs a tenth of the deals;
``--redraw`` only redraws the tables and figures from the saved results, and
``--only NAME …`` plays only the named experiments again.

Every deal is played by rule-of-thumb bots (:class:`~loo_tutor.analysis.bots.ThumbBot`)
at every seat unless an experiment says otherwise, with the deal's full
information inside the simulator but each bot seeing only its own view. Seat 0
is always the player on the dealer's left: the first to announce and, if in,
the first to lead.

Experiments:

* ``one_trump`` — seat 0 holds exactly one trump and stands: how often is it
  looed, and what does the stand earn, by the rank of the trump and the
  number of players; and by how many others came in (queen or better).
* ``miss`` — seat 0 holds a hopeless hand (no trump, no ace): what standing
  and taking the miss earn against the pool, compared with passing (0).
* ``table_size`` — whole deals at tables of five to eight: how many come in,
  how many are looed, and the same for a simple deal where all must play.
* ``good_of_the_loo`` — seat 0 plays on for the good of the loo once it has
  a trick, or coasts; the same deals both ways, single deals and sessions.
* ``sampling`` — seat 0 is a sampling bot instead of the rule-of-thumb bot,
  with and without the belief that the others announce by the tips.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..engine.legality import Announcement
from ..engine.session import Session
from ..engine.state import Announce, new_deal
from ..engine.three_card import three_card_deal
from .bots import Bot, ThumbBot
from .estimate import SamplingBot, finisher
from .progress import ProgressBar

SEED = 2026
"""The seed every experiment derives its own generator from."""

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PLAYER_COUNTS = (5, 6, 7, 8)
Z95 = 1.959963984540054


def _names(count: int) -> list[str]:
    return [f"P{i}" for i in range(count)]


def _rng(experiment: str, *parts: object) -> random.Random:
    """A generator for one part of one experiment, fixed by :data:`SEED`."""
    return random.Random("-".join(str(p) for p in (SEED, experiment, *parts)))


@dataclass
class Tally:
    """Running sums for a mean, a rate and their 95 % intervals."""

    count: int = 0
    total: Fraction = field(default_factory=Fraction)
    squares: Fraction = field(default_factory=Fraction)
    hits: int = 0

    def add(self, value: Fraction, hit: bool = False) -> None:
        """Count one result ``value``; ``hit`` counts towards the rate."""
        self.count += 1
        self.total += value
        self.squares += value * value
        self.hits += hit

    def mean(self) -> float:
        """The mean of the values counted (NaN before any)."""
        return float(self.total / self.count) if self.count else math.nan

    def half_width(self) -> float:
        """Half the width of the normal 95 % interval of the mean."""
        n = self.count
        if n < 2:
            return math.nan
        spread = float(self.squares - self.total * self.total / n) / (n - 1)
        return Z95 * math.sqrt(max(spread, 0.0) / n)

    def rate(self) -> float:
        """The share of hits among the values counted (NaN before any)."""
        return self.hits / self.count if self.count else math.nan

    def rate_interval(self) -> tuple[float, float]:
        """The Wilson 95 % interval of the rate."""
        n = self.count
        if not n:
            return math.nan, math.nan
        p = self.hits / n
        centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
        return centre - half, centre + half

    def summary(self) -> dict[str, Any]:
        """Count, mean and rate with their intervals, rounded, for saving as JSON."""
        low, high = self.rate_interval()
        return {"n": self.count, "mean": _round(self.mean()),
                "mean_ci": _round(self.half_width()), "rate": _round(self.rate()),
                "rate_low": _round(low), "rate_high": _round(high)}


def _round(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)


# -- the experiments -----------------------------------------------------------


def one_trump(deals: int, bar: Callable[[int], None]) -> dict[str, Any]:
    """Seat 0 stands with exactly one trump; everyone plays by the tips."""
    play = finisher(ThumbBot())
    by_rank: dict[tuple[int, int], Tally] = {}
    by_company: dict[tuple[int, int], Tally] = {}
    done = 0
    for count in PLAYER_COUNTS:
        rng = _rng("one_trump", count)
        for _ in range(deals):
            done += 1
            bar(done)
            state = new_deal(_names(count), count - 1, 3, rng)
            trumps = [c for c in state.hands[0] if c.suit is state.trump]
            if len(trumps) != 1:
                continue
            state.push(Announce(0, Announcement.STAND))
            play(state, rng)
            looed = 0 in state.settlement().looed
            net = state.settlement().net[0]
            by_rank.setdefault((count, trumps[0].rank), Tally()).add(net, looed)
            if trumps[0].rank >= 10:
                others = len(state.active) - 1
                by_company.setdefault((count, others), Tally()).add(net, looed)
    return {
        "question": "How often is a stand with exactly one trump looed?",
        "deals_per_count": deals, "carried": 3, "pool": 6,
        "by_rank": [{"players": c, "rank": RANKS[r], **t.summary()}
                    for (c, r), t in sorted(by_rank.items())],
        "by_others_in": [{"players": c, "others_in": o, **t.summary()}
                         for (c, o), t in sorted(by_company.items())],
    }


MISS_CARRIED = (3, 6, 9, 12, 18, 24, 36)
MISS_COUNTS = (5, 6, 8)


def miss(deals: int, bar: Callable[[int], None]) -> dict[str, Any]:
    """Seat 0 holds no trump and no ace: stand, take the miss, or pass (0)."""
    play = finisher(ThumbBot())
    rows = []
    done = 0
    for count in MISS_COUNTS:
        for carried in MISS_CARRIED:
            rng = _rng("miss", count, carried)
            stand, take = Tally(), Tally()
            while stand.count < deals:
                state = new_deal(_names(count), count - 1, carried, rng)
                hand = state.hands[0]
                if any(c.suit is state.trump or c.rank == 12 for c in hand):
                    continue
                done += 1
                bar(done)
                for call, tally in ((Announcement.STAND, stand), (Announcement.MISS, take)):
                    trial = state.copy()
                    trial.push(Announce(0, call))
                    play(trial, rng)
                    settled = trial.settlement()
                    tally.add(settled.net[0], 0 in settled.looed)
            rows.append({"players": count, "carried": carried, "pool": carried + 3,
                         "stand": stand.summary(), "miss": take.summary()})
    return {"question": "What is the miss worth to a hopeless hand, against the pool?",
            "hands_per_point": deals, "rows": rows}


def table_size(deals: int, bar: Callable[[int], None]) -> dict[str, Any]:
    """Whole deals by the tips at tables of five to eight, double and simple."""
    play = finisher(ThumbBot())
    rows = []
    done = 0
    for count in PLAYER_COUNTS:
        for carried in (0, 3):
            rng = _rng("table_size", count, carried)
            active, looed, stood_looed = Tally(), Tally(), Tally()
            for _ in range(deals):
                done += 1
                bar(done)
                state = new_deal(_names(count), count - 1, carried, rng)
                play(state, rng)
                settled = state.settlement()
                playing = [s for s in state.active if s != state.defender]
                active.add(Fraction(len(state.active)))
                looed.add(Fraction(len(settled.looed)))
                for seat in playing:
                    stood_looed.add(Fraction(0), seat in settled.looed)
            rows.append({"players": count, "kind": "simple" if carried == 0 else "double",
                         "carried": carried, "deals": deals,
                         "active": active.summary(), "looed": looed.summary(),
                         "player_looed": stood_looed.summary()})
    return {"question": "How does the number of players change a deal?", "rows": rows}


def good_of_the_loo(deals: int, sessions: int, bar: Callable[[int], None]) -> dict[str, Any]:
    """Seat 0 plays on for the good of the loo, or coasts, in the same deals."""
    count = 6
    loo = ThumbBot()
    coast = ThumbBot(name="coast", good_of_the_loo=False)
    tables = {"loo": finisher({0: loo} | {s: loo for s in range(1, count)}),
              "coast": finisher({0: coast} | {s: loo for s in range(1, count)})}
    single = {name: (Tally(), Tally(), Tally()) for name in tables}
    paired = Tally()
    rng = _rng("good_of_the_loo", "deals")
    done = 0
    for _ in range(deals):
        done += 1
        bar(done)
        state = new_deal(_names(count), count - 1, 3, rng)
        nets = {}
        for name, play in tables.items():
            trial = state.copy()
            play(trial, rng)
            settled = trial.settlement()
            net, others_looed, carried = single[name]
            nets[name] = settled.net[0]
            net.add(settled.net[0])
            others_looed.add(Fraction(sum(1 for s in settled.looed if s != 0)))
            carried.add(settled.carried_next)
        paired.add(nets["loo"] - nets["coast"], nets["loo"] != nets["coast"])
    difference = Tally()
    balances = {name: Tally() for name in tables}
    for number in range(sessions):
        done += 1
        bar(done)
        results = {}
        for name, play in tables.items():
            session = Session(_names(count), deals=2 * count, seed=SEED * 100_000 + number,
                              first_dealer=count - 1)
            while not session.is_over():
                dealt = three_card_deal(session.start_deal())  # the lab's sessions play limited Loo
                play(dealt, session.rng)
                session.finish_deal(dealt)
            results[name] = session.end()[session.players[0]]
            balances[name].add(results[name])
        difference.add(results["loo"] - results["coast"])
    return {
        "question": "Does playing for the good of the loo pay?",
        "players": count, "deals": deals, "carried": 3, "sessions": sessions,
        "deals_per_session": 2 * count,
        "single": {name: {"net": t[0].summary(), "others_looed": t[1].summary(),
                          "carried_next": t[2].summary()} for name, t in single.items()},
        "single_difference": paired.summary(),
        "session_balance": {name: t.summary() for name, t in balances.items()},
        "session_difference": difference.summary(),
    }


def sampling(deals: int, samples: int, bar: Callable[[int], None]) -> dict[str, Any]:
    """Seat 0 is the rule-of-thumb bot or a sampling bot, in the same deals.

    The sampling bot comes in two kinds: one that takes every unseen card to
    be anywhere it could be, and one that also believes the others announced
    by the tips.
    """
    count = 6
    thumb = ThumbBot()
    players: dict[str, Bot] = {
        "thumb": thumb,
        "sampling": SamplingBot(samples=samples, rollout=thumb),
        "believing": SamplingBot(name="believing", samples=samples, rollout=thumb,
                                 beliefs=thumb),
    }
    tables = {name: finisher({0: bot} | {s: thumb for s in range(1, count)})
              for name, bot in players.items()}
    results = {name: Tally() for name in players}
    differences = {name: Tally() for name in players if name != "thumb"}
    rng = _rng("sampling")
    for number in range(deals):
        bar(number + 1)
        state = new_deal(_names(count), count - 1, 3, rng)
        nets = {}
        for name, play in tables.items():
            trial = state.copy()
            play(trial, _rng("sampling", number))
            nets[name] = trial.settlement().net[0]
            results[name].add(nets[name])
        for name, tally in differences.items():
            tally.add(nets[name] - nets["thumb"])
    return {"question": "Does sampling beat the rules of thumb?", "players": count,
            "deals": deals, "samples_per_decision": samples, "carried": 3,
            "net": {name: t.summary() for name, t in results.items()},
            "difference": {name: t.summary() for name, t in differences.items()}}


# -- running, saving and drawing ----------------------------------------------


@dataclass(frozen=True)
class Sizes:
    """How many deals each experiment plays."""

    one_trump: int = 30_000
    miss: int = 4_000
    table_size: int = 5_000
    loo_deals: int = 20_000
    loo_sessions: int = 1_000
    sampling_deals: int = 2_000
    sampling_samples: int = 100

    def scaled(self, factor: float) -> Sizes:
        return Sizes(*(max(2, round(v * factor)) for v in (
            self.one_trump, self.miss, self.table_size, self.loo_deals, self.loo_sessions,
            self.sampling_deals, self.sampling_samples)))


EXPERIMENTS = ("one_trump", "miss", "table_size", "good_of_the_loo", "sampling")
"""The experiments' names, in the order they run."""


def run(sizes: Sizes, progress: bool = True, only: Collection[str] = EXPERIMENTS,
        previous: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Play the experiments named in ``only`` and return the results as plain data.

    The results of the others are taken from ``previous`` (saved results).
    """
    def stage(label: str, total: int) -> tuple[ProgressBar | None, Callable[[int], None]]:
        if not progress:
            return None, lambda done: None
        bar = ProgressBar(total, f"{label:<16}")
        return bar, bar.update

    results: dict[str, Any] = dict(previous or {})
    results.update({"seed": SEED, "command": "python -m loo_tutor.analysis.lab"})
    jobs: list[tuple[str, int, Callable[[Callable[[int], None]], dict[str, Any]]]] = [
        ("one_trump", sizes.one_trump * len(PLAYER_COUNTS),
         lambda bar: one_trump(sizes.one_trump, bar)),
        ("miss", sizes.miss * len(MISS_COUNTS) * len(MISS_CARRIED),
         lambda bar: miss(sizes.miss, bar)),
        ("table_size", sizes.table_size * len(PLAYER_COUNTS) * 2,
         lambda bar: table_size(sizes.table_size, bar)),
        ("good_of_the_loo", sizes.loo_deals + sizes.loo_sessions,
         lambda bar: good_of_the_loo(sizes.loo_deals, sizes.loo_sessions, bar)),
        ("sampling", sizes.sampling_deals,
         lambda bar: sampling(sizes.sampling_deals, sizes.sampling_samples, bar)),
    ]
    for name, total, job in jobs:
        if name not in only:
            continue
        bar, update = stage(name, total)
        results[name] = job(update)
        if bar is not None:
            bar.update(total)
            bar.close()
    return results


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _money(summary: Mapping[str, Any], digits: int = 2) -> str:
    return f"{summary['mean']:+.{digits}f} ± {summary['mean_ci']:.{digits}f}"


def tables(results: Mapping[str, Any]) -> dict[str, str]:
    """MyST Markdown tables of the results, by file stem."""
    out: dict[str, str] = {}
    trump = results["one_trump"]
    cells = {(row["players"], row["rank"]): row for row in trump["by_rank"]}
    head = ["| trump | " + " | ".join(f"{c} players" for c in PLAYER_COUNTS) + " |",
            "|---|" + "---:|" * len(PLAYER_COUNTS)]
    for stem, cell in (("strategy-one-trump", lambda e: _pct(e["rate"])),
                       ("strategy-one-trump-result", _money)):
        lines = list(head)
        for rank in RANKS:
            row = [rank]
            for count in PLAYER_COUNTS:
                entry = cells.get((count, rank))
                row.append("–" if entry is None else cell(entry))
            lines.append("| " + " | ".join(row) + " |")
        out[stem] = "\n".join(lines) + "\n"

    good = results["good_of_the_loo"]
    single, balance = good["single"], good["session_balance"]
    lines = ["| seat 0 once it has a trick | net per deal | others looed per deal "
             "| carried to the next deal | final balance of a session |",
             "|---|---:|---:|---:|---:|"]
    for name, label in (("loo", "plays on for the good of the loo"),
                        ("coast", "coasts (lowest card)")):
        lines.append(f"| {label} | {_money(single[name]['net'])} "
                     f"| {single[name]['others_looed']['mean']:.3f} "
                     f"| {single[name]['carried_next']['mean']:.2f} "
                     f"| {_money(balance[name])} |")
    lines.append(f"| difference, same deals | {_money(good['single_difference'], 3)} | | "
                 f"| {_money(good['session_difference'])} |")
    out["strategy-good-of-the-loo"] = "\n".join(lines) + "\n"

    size = results["table_size"]
    lines = ["| players | deal | players in | looed per deal | chance a player in is looed |",
             "|---:|---|---:|---:|---:|"]
    for row in size["rows"]:
        lines.append(f"| {row['players']} | {row['kind']} | {row['active']['mean']:.2f} "
                     f"| {row['looed']['mean']:.2f} | {_pct(row['player_looed']['rate'])} |")
    out["strategy-table-size"] = "\n".join(lines) + "\n"

    missing = results["miss"]
    lines = ["| pool | " + " | ".join(f"{c} players: miss / stand" for c in MISS_COUNTS) + " |",
             "|---:|" + "---:|" * len(MISS_COUNTS)]
    for carried in MISS_CARRIED:
        row = [str(carried + 3)]
        for count in MISS_COUNTS:
            entry = next(r for r in missing["rows"]
                         if r["players"] == count and r["carried"] == carried)
            row.append(f"{entry['miss']['mean']:+.2f} / {entry['stand']['mean']:+.2f}")
        lines.append("| " + " | ".join(row) + " |")
    out["strategy-miss"] = "\n".join(lines) + "\n"

    samp = results["sampling"]
    lines = ["| seat 0 played by | net per deal | difference from the rule-of-thumb bot, "
             "same deals |", "|---|---:|---:|"]
    for name, label in (("thumb", "rule-of-thumb bot"),
                        ("sampling", "sampling bot"),
                        ("believing", "sampling bot believing the others follow the tips")):
        versus = samp["difference"].get(name)
        lines.append(f"| {label} | {_money(samp['net'][name])} "
                     f"| {'' if versus is None else _money(versus)} |")
    out["strategy-sampling"] = "\n".join(lines) + "\n"
    return out


def figures(results: Mapping[str, Any], folder: Path) -> list[Path]:
    """Draw the figures as SVG files in ``folder``; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "loo-tutor", "font.size": 10,
                         "svg.fonttype": "none"})
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    markers = dict(zip(PLAYER_COUNTS, "osD^", strict=True))

    def save(fig: Any, stem: str) -> None:
        path = folder / f"{stem}.svg"
        fig.savefig(path, format="svg", bbox_inches="tight", metadata={"Date": None})
        plt.close(fig)
        written.append(path)

    trump = results["one_trump"]
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for count in PLAYER_COUNTS:
        rows = [r for r in trump["by_rank"] if r["players"] == count]
        x = [RANKS.index(r["rank"]) for r in rows]
        y = [100 * r["rate"] for r in rows]
        err = [[100 * (r["rate"] - r["rate_low"]) for r in rows],
               [100 * (r["rate_high"] - r["rate"]) for r in rows]]
        ax.errorbar(x, y, yerr=err, marker=markers[count], capsize=2, label=f"{count} players")
    ax.set_xticks(range(len(RANKS)), RANKS)
    ax.set_xlabel("rank of the only trump in the hand")
    ax.set_ylabel("stands looed (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(f"A stand with one trump (seed {results['seed']}, "
                 f"{trump['deals_per_count']:,} deals per table size)", fontsize=9)
    save(fig, "strategy-one-trump")

    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    company: dict[int, list[dict[str, Any]]] = {}
    for row in trump["by_others_in"]:
        company.setdefault(row["players"], []).append(row)
    for count, rows in sorted(company.items()):
        rows = [r for r in rows if r["n"] >= 30]
        ax.errorbar([r["others_in"] for r in rows], [100 * r["rate"] for r in rows],
                    yerr=[[100 * (r["rate"] - r["rate_low"]) for r in rows],
                          [100 * (r["rate_high"] - r["rate"]) for r in rows]],
                    marker=markers[count], capsize=2, label=f"{count} players")
    ax.set_xticks(sorted({r["others_in"] for rows in company.values() for r in rows}))
    ax.set_xlabel("other players in the deal")
    ax.set_ylabel("stands looed (%)")
    ax.set_ylim(0, None)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(f"One trump of queen or better, by company (seed {results['seed']}; "
                 "points with 30 stands or more)", fontsize=9)
    save(fig, "strategy-company")

    missing = results["miss"]
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for count in MISS_COUNTS:
        rows = [r for r in missing["rows"] if r["players"] == count]
        pools = [r["pool"] for r in rows]
        ax.errorbar(pools, [r["miss"]["mean"] for r in rows],
                    yerr=[r["miss"]["mean_ci"] for r in rows], marker=markers[count],
                    capsize=2, label=f"take the miss, {count} players")
        ax.plot(pools, [r["stand"]["mean"] for r in rows], linestyle=":",
                marker=markers[count], color=ax.lines[-1].get_color(),
                label=f"stand, {count} players")
    ax.axhline(0, color="black", linewidth=0.8, label="pass (always 0)")
    ax.set_xlabel("pool at start of play")
    ax.set_ylabel("mean net result of the deal")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    ax.set_title(f"A hand with no trump and no ace (seed {results['seed']}, "
                 f"{missing['hands_per_point']:,} hands per point)", fontsize=9)
    save(fig, "strategy-miss")
    return written


def default_folder() -> Path:
    """The ``book`` folder of the checkout the package sits in, two folders above this module."""
    return Path(__file__).resolve().parents[2] / "book"


def write(results: Mapping[str, Any], book: Path) -> list[Path]:
    """Save the results, tables and figures under ``book``; returns the files."""
    data = book / "_data"
    data.mkdir(parents=True, exist_ok=True)
    target = data / "strategy-lab.json"
    target.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    written = [target]
    for stem, text in tables(results).items():
        path = data / f"{stem}.md"
        path.write_text(text)
        written.append(path)
    return written + figures(results, book / "figures")


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loo_tutor.analysis.lab",
                                     description="Run the strategy lab and save its results.")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every number of deals (default 1)")
    parser.add_argument("--book", type=Path, default=None,
                        help="the book folder to write into (default: this checkout's book/)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--redraw", action="store_true",
                        help="only redraw the tables and figures from the saved results")
    parser.add_argument("--only", nargs="+", choices=EXPERIMENTS, metavar="NAME",
                        help="play only these experiments again, keeping the saved "
                             f"results of the others ({', '.join(EXPERIMENTS)})")
    args = parser.parse_args(None if argv is None else list(argv))
    if not args.scale > 0:
        print("error: --scale must be above 0", file=sys.stderr)
        return 2
    book = args.book if args.book is not None else default_folder()
    if not book.is_dir():
        print(f"error: no book folder at {book}; give one with --book", file=sys.stderr)
        return 2
    saved: dict[str, Any] = {}
    if args.redraw or args.only:
        path = book / "_data" / "strategy-lab.json"
        try:
            saved = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            print(f"error: cannot read the saved results {path}: {error}", file=sys.stderr)
            return 2
    if args.redraw:
        results = saved
    else:
        results = run(Sizes().scaled(args.scale), progress=not args.quiet,
                      only=args.only or EXPERIMENTS, previous=saved)
    for path in write(results, book):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
