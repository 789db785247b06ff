"""Collusion ``belief`` and ``search`` bots.

The belief (:class:`TableBelief`), from the seat's view only: how each other seat votes — a
*reader* of the table (the bar leaders, this round's targets, a focal seat, grudges: the
convention table bots share) or at random, a probability per seat updated by Bayes from every
reveal — how often it ambushes, who voted for whom, and what a bar nobody has shown is worth (the
deck minus the bot's own bars: ``bar_mean``). The belief bot samples the other votes from it and
puts down the card that most likely keeps it alive (Ambush when it is probably the target), voting
against the richest seat when that costs nothing. The search bot draws whole tables from the same
belief (gold values, deck, other votes) and plays each candidate card to the end of the round
from the same table with the same rollout seed (paired rollouts, :func:`game.bots.search.search_paired`):
the candidates differ by their own merit, so a few dozen rollouts a decision are enough.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from game.bots.search import SearchBudget, default_budget, paired_iterations, play_until, search_paired, softmax_share
from game.games.collusion.bots.heuristic import HeuristicBot, _focal_seat
from game.games.collusion.rules import (
    AMBUSH,
    AMBUSH_CARD,
    ENGINE,
    NO_CARD,
    OUT,
    SHOWDOWN_PICKS,
    Ballot,
    Bank,
    CollusionSettings,
    History,
    Lock,
    Phase,
    Reveal,
    Showdown,
    ShowdownChoice,
    Stage,
    State,
    Unlock,
    Vote,
    showdown_payout,
)
from game.rules.rng import Rng

READER_PRIOR = 0.7  # before any reveal: how likely a seat votes by the table's convention
VOTE_NOISE = 0.8  # a reader's vote: threat + uniform(0, VOTE_NOISE), the highest wins
LIKELIHOOD_SHARPNESS = 5.0  # softmax stand-in for that noise when scoring an observed vote
SAMPLES = 48  # other-vote samples per belief decision
PAIRED_MIN = 4  # the search plays each candidate from at least this many determinisations
CARD_OF_KIND = {"ambush": AMBUSH_CARD, "none": NO_CARD, "out": OUT}


# ------------------------------------------------------------------------------ the belief (pure)
@dataclass(frozen=True, slots=True)
class TableBelief:
    """What one seat believes about the others; every field is public information digested."""

    reader: tuple[float, ...]  # P(seat votes by the table's convention) — else at random
    votes: tuple[tuple[int, ...], ...]  # votes[s][t]: times s was seen voting for t
    ambushes: tuple[int, ...]
    seen: frozenset[tuple[int, int]] = frozenset()  # (round, vote) reveals already digested
    showdowns: tuple[tuple[int, ...], ...] = ()  # per seat: split, steal, take_one counts

    @classmethod
    def fresh(cls, n: int) -> TableBelief:
        return cls((READER_PRIOR,) * n, ((0,) * n,) * n, (0,) * n, frozenset(), ((0, 0, 0),) * n)


def bayes(prior: float, lik_a: float, lik_b: float) -> float:
    """P(A | observation) from P(A) and the observation's likelihood under A and under not-A."""
    num = prior * lik_a
    den = num + (1 - prior) * lik_b
    return prior if den <= 0 else min(0.99, max(0.01, num / den))


def bar_mean(my_gold: Sequence[int], deck: Sequence[int]) -> float:
    """The expected value of a bar this seat has not seen: the full deck minus its own bars."""
    left = list(deck)
    for bar in my_gold:
        if bar in left:
            left.remove(bar)
    return sum(left) / len(left) if left else 0.0


@dataclass(frozen=True, slots=True)
class VoteContext:
    """What every voter could see when a vote began: bars, this round's last tally, the focal seat."""

    living: tuple[int, ...]
    bars: tuple[int, ...]
    tally: tuple[int, ...]
    focal: int | None
    ambush_free: tuple[bool, ...]

    def threat(self, seat: int) -> float:
        """The table convention's "likely target" score (as :class:`HeuristicBot` computes it)."""
        return self.bars[seat] + 0.6 * self.tally[seat] + (0.5 if seat == self.focal else 0.0)


def context_of(view: dict[str, Any]) -> VoteContext:
    seats = view["seats"]
    reveal = view.get("last_reveal")
    same_round = reveal is not None and reveal["round"] == view["round"]
    tally = tuple(reveal["tally"]) if reveal is not None and same_round else (0,) * len(seats)
    return VoteContext(tuple(s["seat"] for s in seats if s["alive"]), tuple(s["bars"] for s in seats), tally,
                       _focal_seat(view), tuple(not s["ambush_used"] for s in seats))


def reader_ambush_chance(ctx: VoteContext, voter: int) -> float:
    """How often a reader ambushes: rarely, unless it leads the threat (then by the margin)."""
    if not ctx.ambush_free[voter]:
        return 0.0
    others = [ctx.threat(t) for t in ctx.living if t != voter]
    if not others:
        return 0.0
    margin = ctx.threat(voter) - max(others)
    return 0.04 if margin <= 0 else min(0.85, 0.35 + 0.2 * margin)


def reader_scores(ctx: VoteContext, belief: TableBelief, voter: int) -> dict[int, float]:
    """A reader's score for each target: threat plus a grudge against seats that voted for it."""
    return {t: ctx.threat(t) + 0.7 * belief.votes[t][voter] for t in ctx.living if t != voter}


def card_likelihoods(ctx: VoteContext, belief: TableBelief, voter: int, card: int) -> tuple[float, float]:
    """P(``card`` | reader) and P(``card`` | random voter) for one revealed card."""
    options = len(ctx.living) - 1 + (1 if ctx.ambush_free[voter] else 0)
    p_random = 1 / max(1, options)
    p_amb = reader_ambush_chance(ctx, voter)
    if card == AMBUSH_CARD:
        return p_amb, p_random
    scores = reader_scores(ctx, belief, voter)
    if card not in scores:
        return 0.01, p_random  # no card at all: neither kind of bot does that
    top = max(scores.values())
    weights = {t: math.exp(LIKELIHOOD_SHARPNESS * (v - top)) for t, v in scores.items()}
    return (1 - p_amb) * weights[card] / sum(weights.values()), p_random


def observe_reveal(belief: TableBelief, ctx: VoteContext, key: tuple[int, int], cards: Sequence[int],
                   me: int) -> TableBelief:
    """Digest one reveal (its cards per seat) seen after a vote that began in ``ctx``."""
    if key in belief.seen:
        return belief
    reader = list(belief.reader)
    votes = [list(row) for row in belief.votes]
    ambushes = list(belief.ambushes)
    for voter, card in enumerate(cards):
        if voter == me or voter not in ctx.living:
            continue
        lik_reader, lik_random = card_likelihoods(ctx, belief, voter, card)
        reader[voter] = bayes(reader[voter], lik_reader, lik_random)
        if card == AMBUSH_CARD:
            ambushes[voter] += 1
        elif card >= 0:
            votes[voter][card] += 1
    return replace(belief, reader=tuple(reader), votes=tuple(tuple(r) for r in votes),
                   ambushes=tuple(ambushes), seen=belief.seen | {key})


def observe_showdown(belief: TableBelief, seats: Sequence[int], choices: Sequence[str],
                     late: Sequence[bool]) -> TableBelief:
    """Count each showdown player's (not timed-out) pick."""
    order = [c.value for c in ShowdownChoice]
    counts = [list(c) for c in belief.showdowns]
    for seat, choice, timed_out in zip(seats, choices, late):
        if not timed_out:
            counts[seat][order.index(choice)] += 1
    return replace(belief, showdowns=tuple(tuple(c) for c in counts))


def sample_card(ctx: VoteContext, belief: TableBelief, voter: int, rng: random.Random) -> int:
    """One card ``voter`` may put down, drawn from the belief."""
    options = [t for t in ctx.living if t != voter]
    if rng.random() >= belief.reader[voter]:
        pool = options + ([AMBUSH_CARD] if ctx.ambush_free[voter] else [])
        return rng.choice(pool)
    if rng.random() < reader_ambush_chance(ctx, voter):
        return AMBUSH_CARD
    scores = reader_scores(ctx, belief, voter)
    return max(options, key=lambda t: scores[t] + rng.uniform(0.0, VOTE_NOISE))


def survival(cards: Sequence[int], living: Sequence[int], me: int) -> tuple[float, int]:
    """C8–C10 for one full set of cards: P(``me`` survives) (an ambushing target picks its victim
    at random among its voters not already dying) and how many others die for sure."""
    tally: dict[int, int] = {}
    for s in living:
        if cards[s] >= 0:
            tally[cards[s]] = tally.get(cards[s], 0) + 1
    top = max(tally.values(), default=0)
    targets = {t for t, c in tally.items() if c == top} if top else set()
    dying = set()
    for s in living:
        card = cards[s]
        if (card == AMBUSH_CARD and s not in targets) or (card != AMBUSH_CARD and (s in targets or card not in targets)):
            dying.add(s)
    others_dead = len(dying - {me})
    if me in dying:
        return 0.0, others_dead
    mine = cards[me]
    if mine >= 0 and cards[mine] == AMBUSH_CARD:
        voters = [s for s in living if cards[s] == mine and s not in dying]
        return 1 - 1 / len(voters), others_dead
    return 1.0, others_dead


# ------------------------------------------------------------------------------------ belief bot
class BeliefBot(HeuristicBot):
    """Keeps a :class:`TableBelief`; votes (or ambushes) for the best sampled survival, showdown
    picks weigh the other survivor's past picks and how close it likely is to the target."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.belief: TableBelief | None = None
        self._contexts: dict[tuple[int, int], VoteContext] = {}
        self._showdowns_seen: set[int] = set()

    def think_ms(self) -> int:
        return self._rng.randint(2_000, 8_000)

    # the heuristic's choose() calls these three
    def _remember(self, view: dict[str, Any]) -> None:
        super()._remember(view)
        self._observe(view)

    def _vote(self, view: dict[str, Any], legal: list[Any]) -> Any:
        ctx = context_of(view)
        self._contexts[(view["round"], view["vote"])] = ctx
        return self.decide_vote(view, ctx, legal)

    def _showdown(self, view: dict[str, Any]) -> Any:
        return self.decide_showdown(view)

    # -- belief upkeep
    def _observe(self, view: dict[str, Any]) -> None:
        if self.belief is None:
            self.belief = TableBelief.fresh(len(view["seats"]))
        reveal = view.get("last_reveal")
        if reveal:
            key = (reveal["round"], reveal["vote"])
            ctx = self._contexts.pop(key, None)
            if ctx is not None:
                cards = [t if t is not None else CARD_OF_KIND.get(k, NO_CARD)
                         for t, k in zip(reveal["voted_for"], reveal["cards"])]
                self.belief = observe_reveal(self.belief, ctx, key, cards, self.seat)
        sd = view.get("last_showdown")
        if sd and sd["round"] not in self._showdowns_seen:
            self._showdowns_seen.add(sd["round"])
            self.belief = observe_showdown(self.belief, sd["seats"], sd["choices"], sd["timed_out"])

    def gold_mean(self, view: dict[str, Any]) -> float:
        s = CollusionSettings()
        deck = [3] * s.gold_threes + [4] * s.gold_fours + [5] * s.gold_fives
        return bar_mean(view["me"]["gold"], deck)

    # -- votes
    def decide_vote(self, view: dict[str, Any], ctx: VoteContext, legal: list[Any]) -> Any:
        assert self.belief is not None
        options: list[int] = [a.target for a in legal if isinstance(a, Vote)]
        mine: list[int] = options + ([AMBUSH_CARD] if AMBUSH in legal else [])
        value = dict.fromkeys(mine, 0.0)
        cards = [OUT] * len(view["seats"])
        for _ in range(SAMPLES):
            for s in ctx.living:
                if s != self.seat:
                    cards[s] = sample_card(ctx, self.belief, s, self._rng)
            for card in mine:
                cards[self.seat] = card
                alive, killed = survival(cards, ctx.living, self.seat)
                value[card] += alive + 0.03 * killed
        mean = self.gold_mean(view)
        for t in options:  # when it costs nothing, vote against the richest-looking seat
            value[t] += 0.02 * SAMPLES * ctx.bars[t] * mean / max(1, view["target_score"])
        best = max(mine, key=lambda c: (value[c], -c))
        return AMBUSH if best == AMBUSH_CARD else next(a for a in legal if isinstance(a, Vote) and a.target == best)

    # -- showdown
    def opponent_picks(self, view: dict[str, Any], other: int) -> dict[ShowdownChoice, float]:
        """P(other survivor's pick): its past picks over a prior, Take one when it is likely near the target."""
        assert self.belief is not None
        counts = self.belief.showdowns[other]
        weights = {c: p + n for (c, p), n in zip(_SHOWDOWN_PRIOR.items(), counts)}
        total = sum(weights.values())
        near = near_target_chance(view["seats"][other]["bars"], self.gold_mean(view), view["target_score"])
        return {c: (1 - near) * w / total + (near if c is ShowdownChoice.TAKE_ONE else 0.0) for c, w in weights.items()}

    def decide_showdown(self, view: dict[str, Any]) -> Any:
        sd = view["showdown"]
        pot = sd["pot"]
        if pot and view["me"]["total"] + 3 >= view["target_score"]:
            return SHOWDOWN_PICKS[ShowdownChoice.TAKE_ONE]
        other = next(s for s in sd["seats"] if s != self.seat)
        odds = self.opponent_picks(view, other)

        def worth(mine: ShowdownChoice) -> float:
            value = sum(p * (showdown_payout(mine, theirs, pot)[0] - 0.5 * showdown_payout(mine, theirs, pot)[1])
                        for theirs, p in odds.items())
            if mine is ShowdownChoice.STEAL:
                value -= 1.0 * odds[ShowdownChoice.STEAL]  # every other player draws a bar
            return value

        return SHOWDOWN_PICKS[max(ShowdownChoice, key=worth)]


_SHOWDOWN_PRIOR = {ShowdownChoice.SPLIT: 2.0, ShowdownChoice.STEAL: 1.5, ShowdownChoice.TAKE_ONE: 1.0}


def near_target_chance(bars: int, mean: float, target: int) -> float:
    """P(a seat with ``bars`` unseen bars is within 3 of the target): a normal approximation."""
    if bars == 0:
        return 0.0
    need = target - 3
    sd = math.sqrt(bars * 0.6) or 1.0  # a bar of 3/4/5 varies by about 0.77
    return 0.5 * math.erfc((need - bars * mean) / (sd * math.sqrt(2)))


# ------------------------------------------------------------------------------------ search bot
def determinise(view: dict[str, Any], me: int, rng: random.Random) -> State:
    """A whole Collusion state consistent with ``view``: other seats' bar values, the pot and the
    deck drawn from the bars this seat has not seen; nobody else's card is down yet (the rollout
    policy puts them down)."""
    s = CollusionSettings(target_score=view["target_score"], target_score_large=view["target_score"])
    seats = view["seats"]
    n = len(seats)
    unseen = [3] * s.gold_threes + [4] * s.gold_fours + [5] * s.gold_fives
    for bar in view["me"]["gold"]:
        unseen.remove(bar)
    rng.shuffle(unseen)
    gold: list[tuple[int, ...]] = []
    for seat in seats:
        if seat["seat"] == me:
            gold.append(tuple(view["me"]["gold"]))
        else:
            gold.append(tuple(unseen[: seat["bars"]]))
            del unseen[: seat["bars"]]
    pot = tuple(unseen[: view["pot"]])
    deck = tuple(unseen[view["pot"]: view["pot"] + view["deck"]])
    alive = tuple(bool(x["alive"]) for x in seats)
    phase = Phase(view["phase"])
    cards = tuple(NO_CARD if a else OUT for a in alive) if phase is Phase.VOTE else (OUT,) * n
    sd = view["showdown"]
    stage = Stage(phase, view["round"], view["vote"], tuple(bool(x["in_round"]) for x in seats), alive,
                  tuple(bool(x["ambush_used"]) for x in seats), tuple(view["tie_break"]),
                  _reveal_of(view.get("last_reveal")), Showdown((sd["seats"][0], sd["seats"][1])) if sd else None)
    bank = Bank(Rng.from_seed(rng.getrandbits(63)), deck, pot, tuple(gold))
    return State(s, n, Ballot(cards, (False,) * n), stage, bank, History())


def _reveal_of(r: dict[str, Any] | None) -> Reveal | None:
    if not r:
        return None
    cards = tuple(t if t is not None else CARD_OF_KIND.get(k, NO_CARD) for t, k in zip(r["voted_for"], r["cards"]))
    return Reveal(r["round"], r["vote"], cards, tuple(r["tally"]), tuple(r["targets"]), tuple(r["ambushers"]),
                  False, (), (), (), (), True)


def _state_context(state: State) -> VoteContext:
    n = state.n
    reveal = state.reveal
    tally = reveal.tally if reveal is not None and reveal.round == state.round else (0,) * n
    living = tuple(s for s in range(n) if state.alive[s])
    focal = living[(state.round * 5 + state.vote) % len(living)] if living else None
    return VoteContext(living, tuple(len(g) for g in state.gold), tally, focal,
                       tuple(not u for u in state.ambush_used))


class _RolloutPolicy:
    """Every seat in a rollout: votes drawn from the belief, locks at once, showdown picks from the
    prior, ambush victims at random."""

    def __init__(self, belief: TableBelief, rng: random.Random) -> None:
        self.belief, self.rng = belief, rng
        self._ctx_key: tuple[int, int] | None = None
        self._ctx: VoteContext | None = None

    def __call__(self, state: State, seat: int, legal: list[Any]) -> Any | None:
        last = legal[-1]
        if type(last) is Unlock:
            return None
        if type(last) is Lock:
            return last
        phase = state.phase
        if phase is Phase.VOTE:
            key = (state.round, state.vote)
            if key != self._ctx_key or self._ctx is None:
                self._ctx_key, self._ctx = key, _state_context(state)
            card = sample_card(self._ctx, self.belief, seat, self.rng)
            return AMBUSH if card == AMBUSH_CARD else Vote(card)
        if phase is Phase.SHOWDOWN:
            return SHOWDOWN_PICKS[self.rng.choices(list(_SHOWDOWN_PRIOR), list(_SHOWDOWN_PRIOR.values()))[0]]
        return self.rng.choice(legal)


class CollusionProblem:
    """The search problem of one decision: determinise from the view, play the candidate card to
    the end of the round, score the totals (a win: 1)."""

    def __init__(self, view: dict[str, Any], me: int, belief: TableBelief) -> None:
        self.view, self.me, self.belief = view, me, belief

    def determinise(self, rng: random.Random) -> State:
        return determinise(self.view, self.me, rng)

    def rollout(self, state: State, action: Any, rng: random.Random) -> float:
        state = ENGINE.apply(state, self.me, action)[0]
        start = state.round
        end = play_until(ENGINE, state, _RolloutPolicy(self.belief, rng), lambda s: s.round != start)
        if ENGINE.is_over(end):
            return 1 / len(end.winners) if self.me in end.winners else 0.0
        return softmax_share(end.totals, self.me, 0.25)


class SearchBot(BeliefBot):
    """Search over the belief's determinisations for every vote and showdown pick: the budget counts
    rollouts (at least :data:`PAIRED_MIN` tables per candidate), every candidate is played on each
    table drawn with the same rollout seed, the best summed score wins."""

    thinks_off_loop = True  # a search spends its budget: the session runs it off the loop

    def __init__(self, seat: int, seed: int, budget: SearchBudget | None = None) -> None:
        super().__init__(seat, seed)
        self.budget = budget

    def decide_vote(self, view: dict[str, Any], ctx: VoteContext, legal: list[Any]) -> Any:
        candidates = [a for a in legal if isinstance(a, Vote) or a == AMBUSH]
        return self._search(view, candidates)

    def decide_showdown(self, view: dict[str, Any]) -> Any:
        return self._search(view, list(SHOWDOWN_PICKS.values()))

    def _search(self, view: dict[str, Any], candidates: list[Any]) -> Any:
        assert self.belief is not None
        budget = self.budget or default_budget("collusion", len(view["seats"]))
        iterations = paired_iterations(budget.iterations, len(candidates), PAIRED_MIN)
        return search_paired(CollusionProblem(view, self.seat, self.belief), candidates, iterations, self._rng)
