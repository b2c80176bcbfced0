#!/usr/bin/env python3
"""Horse Race: an example engine and conformance adapter in one file.

Written from the specification alone (spec/rules.md, spec/interpretations.md,
spec/fixture-format.md, spec/protocol.md). Rule IDs (HR-...) and register entries
(HRI-...) in the docstrings point at the text each piece of code implements. The engine
follows the canonical reading of every register entry.

Run it as the runner does: python3 examples/python/horse_race.py
It reads one JSON object per line on standard input and writes one JSON line per
request on standard output (protocol 1.0, persistent or one-shot mode).

DELIBERATE ERROR (see README.md): by default the settlement of a blocked hand with tied
lowest sides breaks HR-SETTLE-3: each co-winner's credit leaves out the other
co-winners' pips. Set HORSERACE_EXAMPLE_CORRECT=1 to switch the error off.
"""

import json
import os
import sys

DELIBERATE_ERROR = os.environ.get("HORSERACE_EXAMPLE_CORRECT") != "1"

LINEAR = ("linear-a", "linear-b")
BRANCH = ("branch-a", "branch-b")

# Canonical readings of the interpretations register (all canonical).
READINGS = {
    "continuation_without_tile": "draw",
    "continuation": "compulsory",
    "opening_continuation": "earned",
    "drawn_tile_scope": "same-turn",
    "block_detection": "immediate",
    "branch_use": "both",
}


class IllegalAction(Exception):
    """An action the rules forbid; `rule` is the spec rule ID it breaks."""

    def __init__(self, rule, message):
        super().__init__(message)
        self.rule = rule


# --------------------------------------------------------------------------- tiles


def parse_tile(text):
    """'[5|2]' -> (2, 5): either half may come first on input (HR-MOVE-2, HR-SET-1)."""
    a, b = text.strip().strip("[]").split("|")
    a, b = int(a), int(b)
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ValueError(f"no such tile in the double-six set: {text}")
    return (min(a, b), max(a, b))


def tile_text(tile):
    """Canonical notation, low half first: (2, 5) -> '[2|5]'."""
    return f"[{tile[0]}|{tile[1]}]"


def is_double(tile):
    return tile[0] == tile[1]


def pips(tile):
    """HR-SET-2: the pip value of [a|b] is a + b."""
    return tile[0] + tile[1]


def ports_of(tile):
    """HR-MOVE-1: a non-double has low/high; a double has two linear sides, two branches."""
    return LINEAR + BRANCH if is_double(tile) else ("low", "high")


def port_value(tile, port):
    """The value a port shows: low half, high half, or the double's value."""
    return tile[1] if port == "high" else tile[0]


def placement_credit(count):
    """HR-CREDIT-1: the count if it is a positive multiple of five, else 0 (raw points)."""
    return count if count > 0 and count % 5 == 0 else 0


def round_to_five(total):
    """HR-SETTLE-1 step 2: remainder 1 or 2 rounds down, 3 or 4 rounds up."""
    r = total % 5
    return total - r if r <= 2 else total + 5 - r


# -------------------------------------------------------------------------- layout


class Layout:
    """The tiles on the table, their connections and free ports (HR-MOVE-1, HR-PLACE-1)."""

    def __init__(self):
        self.tiles = []  # in placement order
        self.occupied = {}  # tile -> set of its occupied ports
        self.connections = []  # ((target, target_port), (tile, tile_port))

    def clone(self):
        other = Layout()
        other.tiles = list(self.tiles)
        other.occupied = {t: set(p) for t, p in self.occupied.items()}
        other.connections = list(self.connections)
        return other

    def linear_free(self, double):
        return any(p not in self.occupied[double] for p in LINEAR)

    def canonical_port(self, target, port):
        """HR-MOVE-2: mirror-image ports are one move, named by the first free of A, B.

        The two linear sides of an opening double while both are free, and the two
        branches of a spinner while both are free (its linear sides being occupied).
        """
        if is_double(target):
            used = self.occupied[target]
            for pair in (LINEAR, BRANCH):
                if port in pair and not (used & set(pair)):
                    return pair[0]
        return port

    def attachment_points(self):
        """Every available free port with its value, mirror images included.

        A branch is available only once both linear sides of its spinner are occupied
        (HR-SPIN-2); then both branches are (HR-SPIN-3, branch_use=both).
        """
        points = []
        for tile in self.tiles:
            for port in ports_of(tile):
                if port in self.occupied[tile]:
                    continue
                if port in BRANCH and self.linear_free(tile):
                    continue
                points.append((tile, port, port_value(tile, port)))
        return points

    def check(self, tile, target, port):
        """Validate a placement; return the canonical target port.

        Order of checks for a placement (after HR-PLACE-3 and HR-DRAW-3, done by the
        hand): HR-MOVE-1, HR-SPIN-2, HR-PLACE-1.
        """
        if not self.tiles:
            if target is not None or port is not None:
                raise IllegalAction("HR-MOVE-1", "the opening tile has no target")
            return None
        if target is None or port is None:
            raise IllegalAction("HR-MOVE-1", "a placement after the opening needs a target and a port")
        if target not in self.occupied:
            raise IllegalAction("HR-MOVE-1", f"{tile_text(target)} is not in the layout")
        if port not in ports_of(target):
            raise IllegalAction("HR-MOVE-1", f"{port} is not a port of {tile_text(target)}")
        port = self.canonical_port(target, port)
        if port in BRANCH and self.linear_free(target):
            raise IllegalAction("HR-SPIN-2", "a linear side of that spinner is still free")
        if port in self.occupied[target]:
            raise IllegalAction("HR-PLACE-1", f"{tile_text(target)} {port} is occupied")
        if port_value(target, port) not in tile:
            raise IllegalAction("HR-PLACE-1", f"{tile_text(tile)} does not match {tile_text(target)} {port}")
        return port

    def place(self, tile, target=None, port=None):
        """Check and apply a placement (HR-MOVE-1 touching rules); return the connection."""
        if tile in self.occupied:
            raise IllegalAction("HR-PLACE-3", f"{tile_text(tile)} is already in the layout")
        port = self.check(tile, target, port)
        self.tiles.append(tile)
        self.occupied[tile] = set()
        if target is None:
            return None
        value = port_value(target, port)
        # A double touches with linear-a; a non-double with its half equal to the value.
        touching = "linear-a" if is_double(tile) else ("low" if tile[0] == value else "high")
        self.occupied[target].add(port)
        self.occupied[tile].add(touching)
        self.connections.append(((target, port), (tile, touching)))
        return port

    def moves_for(self, tile):
        """Distinct legal (target, port) pairs for a tile, mirror images once (HR-MOVE-2)."""
        if not self.tiles:
            return [(None, None)]
        moves = {(t, self.canonical_port(t, p)) for t, p, v in self.attachment_points() if v in tile}
        return sorted(moves)

    def contributions(self):
        """HR-COUNT-1..5: counted contributions as (tile, port or None, value).

        A non-double counts each free port (its free ends); a double counts 2 x v once
        while at least one linear side is free, and nothing once it is interior. Branch
        ports never count. Zero ends are listed (HR-COUNT-4).
        """
        result = []
        for tile in self.tiles:
            if is_double(tile):
                if self.linear_free(tile):
                    result.append((tile, None, 2 * tile[0]))
            else:
                for port in ("low", "high"):
                    if port not in self.occupied[tile]:
                        result.append((tile, port, port_value(tile, port)))
        return result

    def count(self):
        return sum(value for _, _, value in self.contributions())

    def snapshot(self):
        """The `layout` observation, in the canonical encoding and order."""
        count = self.count()
        raw = placement_credit(count)
        contributions = sorted(self.contributions(), key=lambda c: (tile_text(c[0]), c[1] or ""))
        connections = sorted(self.connections, key=lambda c: (tile_text(c[0][0]), c[0][1], tile_text(c[1][0])))
        return {
            "tiles": sorted(tile_text(t) for t in self.tiles),
            "spinners": sorted(tile_text(t) for t in self.tiles if is_double(t)),
            "connections": [
                [{"tile": tile_text(a), "port": ap}, {"tile": tile_text(b), "port": bp}]
                for (a, ap), (b, bp) in connections
            ],
            "attachment_points": [
                {"tile": tile_text(t), "port": p, "value": v}
                for t, p, v in sorted(self.attachment_points(), key=lambda x: (tile_text(x[0]), x[1]))
            ],
            "contributions": [
                dict({"tile": tile_text(t)}, **({"port": p} if p else {}), value=v) for t, p, v in contributions
            ],
            "sum": count,
            "credit_raw": raw,
            "credit": raw // 5,
        }


# ---------------------------------------------------------------------- settlement


def side_of(mode, seat):
    """HR-SEAT-2: partnership sides are seats {0, 2} and {1, 3}; else one seat per side."""
    return seat % 2 if mode == "partnership" else seat


def settle(mode, seat_pips, scores, target, ended_by):
    """Settle a hand: winners, credits per side, scores after, match winners.

    HR-END-1: a hand ended by a last tile is won by the placer's side.
    HR-END-2: a blocked hand is won by the side(s) with the lowest remaining total.
    HR-SETTLE-1/2: each winning side adds the opponents' pips once, rounds once, / 5.
    HR-SETTLE-3: co-winners each get a full credit from ALL other sides, co-winners
    included -- unless the deliberate error is on (see the module docstring).
    HR-MATCH-2: credits are applied together; every side at or over the target wins.
    """
    n_sides = len(scores)
    side_pips = [0] * n_sides
    for seat, p in enumerate(seat_pips):
        side_pips[side_of(mode, seat)] += p
    if ended_by == "blocked":
        lowest = min(side_pips)
        winners = [s for s in range(n_sides) if side_pips[s] == lowest]
    else:
        winners = [side_of(mode, ended_by)]
    credits = [0] * n_sides
    for w in winners:
        if DELIBERATE_ERROR:
            # The deliberate error: co-winners' pips are left out of each other's credit.
            counted = [s for s in range(n_sides) if s not in winners]
        else:
            counted = [s for s in range(n_sides) if s != w]
        credits[w] = round_to_five(sum(side_pips[s] for s in counted)) // 5
    after = [scores[s] + credits[s] for s in range(n_sides)]
    match_winners = [s for s in range(n_sides) if after[s] >= target]
    return winners, credits, after, match_winners


# ---------------------------------------------------------------------------- hand


class Hand:
    """One hand of play, driven by actions: place, draw, pass_turn, end_turn.

    Every action is checked in the order of spec/rules.md, "Order of checks for illegal
    actions"; a refused action raises IllegalAction and changes nothing. Accepted actions
    append events in the shape of the `play` observations.
    """

    def __init__(self, mode, n_seats, scores, target, deal):
        self.mode, self.n, self.target = mode, n_seats, target
        self.scores = scores  # per side, displayed points; updated in place
        self.hands = [set(parse_tile(t) for t in h) for h in deal["hands"]]
        self.boneyard = [parse_tile(t) for t in deal["boneyard"]]  # drawn from the front
        self.layout = Layout()
        for p in deal.get("layout") or []:
            self.layout.place(*read_placement(p))
        self.to_act = deal["opener"]
        self.pending = None  # a playable tile just drawn (HR-DRAW-3)
        self.just_ended = None  # (seat, rule) of the turn that has just ended
        self.over = None  # None, "domino", "blocked" or "match"
        self.match_over = False
        self.events = []
        self.check_blocked()

    def clone(self):
        other = Hand.__new__(Hand)
        other.__dict__.update(self.__dict__)
        other.scores = list(self.scores)
        other.hands = [set(h) for h in self.hands]
        other.boneyard = list(self.boneyard)
        other.layout = self.layout.clone()
        other.events = []
        return other

    # -- queries

    def playable(self, tile):
        return bool(self.layout.moves_for(tile))

    def has_legal(self, seat):
        """HR-PLACE-1: a seat holds a legal placement if any of its tiles is playable."""
        return any(self.playable(t) for t in self.hands[seat])

    def legal_moves(self):
        """The moves of the seat to act: (tile, target, port), mirror ports once."""
        tiles = [self.pending] if self.pending else sorted(self.hands[self.to_act])
        return [(t, target, port) for t in tiles if self.playable(t) for target, port in self.layout.moves_for(t)]

    # -- checks shared by every action

    def check_turn(self, seat):
        """Checks 1-3 of the order: HR-MATCH-3, HR-END-3, then the wrong seat.

        A seat acting again right after its own turn ended (before the next seat acted)
        breaks the rule that ended that turn: HR-TURN-3 (a drawn tile) or HR-TURN-1 (a
        non-double that did not score). Any other wrong seat, including a seat acting
        again after its own pass, breaks HR-SEAT-3.
        """
        if self.match_over:
            raise IllegalAction("HR-MATCH-3", "the match is over")
        if self.over:
            raise IllegalAction("HR-END-3", "the hand is over")
        if seat != self.to_act:
            if self.just_ended and self.just_ended[0] == seat and self.just_ended[1]:
                raise IllegalAction(self.just_ended[1], f"seat {seat}'s turn has ended")
            raise IllegalAction("HR-SEAT-3", f"it is seat {self.to_act}'s turn, not seat {seat}'s")

    def end_turn_of(self, seat, rule):
        """HR-SEAT-3: the turn passes clockwise; remember which rule ended it."""
        self.just_ended = (seat, rule)
        self.to_act = (seat + 1) % self.n

    # -- actions

    def place(self, seat, tile, target=None, port=None):
        """Place a tile (HR-PLACE-1, HR-PLACE-3, HR-DRAW-3, HR-MOVE-1, HR-SPIN-2).

        Then: credit (HR-CREDIT-1/2) added at once; the match (HR-MATCH-1), the hand
        (HR-END-1) and a block (HR-BLOCK-1) come before a continuation (HR-TURN-2);
        otherwise a double or a scoring tile continues the turn (HR-TURN-1), except a
        tile just drawn, which always ends it (HR-TURN-3).
        """
        self.check_turn(seat)
        if tile not in self.hands[seat]:
            raise IllegalAction("HR-PLACE-3", f"{tile_text(tile)} is not in seat {seat}'s hand")
        if self.pending and tile != self.pending:
            raise IllegalAction("HR-DRAW-3", f"the drawn {tile_text(self.pending)} must be placed")
        port = self.layout.place(tile, target, port)
        self.hands[seat].discard(tile)
        self.just_ended = None
        drawn, self.pending = self.pending is not None, None
        count = self.layout.count()
        raw = placement_credit(count)
        side = side_of(self.mode, seat)
        self.scores[side] += raw // 5
        event = {"event": "place", "seat": seat, "tile": tile_text(tile)}
        if target is not None:
            event.update(target=tile_text(target), port=port)
        event.update(count=count, credit_raw=raw, credit=raw // 5, continues=False, drawn=drawn)
        self.events.append(event)
        if raw > 0 and self.scores[side] >= self.target:
            self.end_match_by_placement(side)
        elif not self.hands[seat]:
            self.end_hand("domino", seat)
        elif not drawn and (is_double(tile) or raw > 0):
            self.check_blocked()
            event["continues"] = not self.over
        else:
            self.end_turn_of(seat, "HR-TURN-3" if drawn else "HR-TURN-1")
            self.check_blocked()

    def draw(self, seat):
        """Draw one tile (HR-DRAW-2, HR-DRAW-1, HR-DRAW-4); a playable one is pending."""
        self.check_turn(seat)
        if self.pending:
            raise IllegalAction("HR-DRAW-2", "a playable drawn tile must be placed first")
        if self.has_legal(seat):
            raise IllegalAction("HR-DRAW-1", "a player with a legal placement must place")
        if not self.boneyard:
            raise IllegalAction("HR-DRAW-4", "the boneyard is empty")
        tile = self.boneyard.pop(0)
        self.hands[seat].add(tile)
        self.just_ended = None
        self.events.append({"event": "draw", "seat": seat, "tile": tile_text(tile)})
        if self.playable(tile):
            self.pending = tile
        self.check_blocked()

    def pass_turn(self, seat):
        """HR-PASS-1: only with no legal placement and an empty boneyard; ends the turn."""
        self.check_turn(seat)
        if self.has_legal(seat) or self.boneyard:
            raise IllegalAction("HR-PASS-1", "a pass needs no legal placement and an empty boneyard")
        self.events.append({"event": "pass", "seat": seat})
        self.end_turn_of(seat, None)  # a pass is not one of the two turn-ending rules
        self.check_blocked()

    def end_turn(self, seat):
        """Giving up a continuation: never allowed under continuation=compulsory (HR-DRAW-1)."""
        self.check_turn(seat)
        raise IllegalAction("HR-DRAW-1", "a continuation is compulsory")

    def advance(self):
        """Make the forced actions (draws and passes) until a placement is needed."""
        while not self.over and not self.has_legal(self.to_act):
            if self.boneyard:
                self.draw(self.to_act)
            else:
                self.pass_turn(self.to_act)

    # -- ends

    def check_blocked(self):
        """HR-BLOCK-1 (HRI-5 immediate): boneyard empty and nobody can place."""
        if not self.over and not self.boneyard and not any(self.has_legal(s) for s in range(self.n)):
            self.end_hand("blocked", None)

    def seat_pips(self):
        return [sum(pips(t) for t in hand) for hand in self.hands]

    def end_match_by_placement(self, side):
        """HR-MATCH-1: the placement reached the target; no settlement, no hand winner."""
        self.over, self.match_over = "match", True
        self.events.append(
            {
                "event": "hand-end",
                "reason": "match",
                "winners": [],
                "pips": self.seat_pips(),
                "credits": [0] * len(self.scores),
                "scores": list(self.scores),
                "next_opener": None,
            }
        )
        self.events.append({"event": "match-end", "winners": [side], "scores": list(self.scores)})

    def end_hand(self, reason, placer):
        """Settle the hand (HR-END-1/2, HR-SETTLE-1..3, HR-MATCH-2, HR-OPEN-3)."""
        self.over = reason
        ended_by = "blocked" if reason == "blocked" else placer
        winners, credits, after, match_winners = settle(self.mode, self.seat_pips(), self.scores, self.target, ended_by)
        self.scores[:] = after
        self.match_over = bool(match_winners)
        next_opener = None if (reason == "blocked" or self.match_over) else placer
        self.events.append(
            {
                "event": "hand-end",
                "reason": reason,
                "winners": winners,
                "pips": self.seat_pips(),
                "credits": credits,
                "scores": list(self.scores),
                "next_opener": next_opener,
            }
        )
        if match_winners:
            self.events.append({"event": "match-end", "winners": match_winners, "scores": list(self.scores)})


# ------------------------------------------------------------------ fixture kinds


def read_placement(p):
    """{tile, target, port} -> (tile, target or None, port or None)."""
    target = parse_tile(p["target"]) if p.get("target") is not None else None
    return parse_tile(p["tile"]), target, p.get("port")


def new_hand(inp, deal, scores):
    return Hand(inp["mode"], inp["seats"], scores, inp["target"], deal)


class Rejected(Exception):
    def __init__(self, at, error):
        super().__init__(str(error))
        self.at, self.rule = at, error.rule


def run_layout(inp):
    """`layout`: one snapshot per step, from an empty layout or from `setup`."""
    layout = Layout()
    for p in inp.get("setup") or []:
        layout.place(*read_placement(p))
    steps = []
    for i, p in enumerate(inp["steps"]):
        try:
            layout.place(*read_placement(p))
        except IllegalAction as e:
            raise Rejected(i, e)
        steps.append(layout.snapshot())
    return {"steps": steps}


def run_play(inp):
    """`play`: replay every listed placement; draws and passes follow from the boneyard.

    The trace stops where a placement is needed and none is listed.
    """
    scores = list(inp["scores"])
    hands_out, index, stopped, match_winners = [], 0, False, []
    for deal in inp["hands"]:
        hand = new_hand(inp, deal, scores)
        hands_out.append({"events": hand.events})
        placements = deal.get("placements") or []
        k = 0
        while True:
            try:
                hand.advance()
                if hand.over:
                    break
                if k >= len(placements):
                    stopped = True
                    break
                p = placements[k]
                if p.get("end_turn"):
                    hand.end_turn(hand.to_act)
                else:
                    hand.place(hand.to_act, *read_placement(p))
            except IllegalAction as e:
                raise Rejected(index, e)
            k += 1
            index += 1
        if hand.over and k < len(placements):  # placements after the end (HR-END-3)
            raise Rejected(
                index, IllegalAction("HR-MATCH-3" if hand.match_over else "HR-END-3", "placement after the end")
            )
        if hand.match_over:
            match_winners = hand.events[-1]["winners"]
        if stopped or hand.match_over:
            break
    return {"hands": hands_out, "scores": scores, "match_winners": match_winners}


def run_settlement(inp):
    """`settlement`: the hand's winners, credits, scores and match winners."""
    seat_pips = [sum(pips(parse_tile(t)) for t in h) for h in inp["hands"]]
    winners, credits, after, match_winners = settle(
        inp["mode"], seat_pips, list(inp["scores"]), inp["target"], inp["ended_by"]
    )
    return {"winners": winners, "credits": credits, "scores": after, "match_winners": match_winners}


def run_illegal(inp):
    """`illegal`: apply the actions in order; the first refused one is reported."""
    hand = new_hand(inp, inp, list(inp["scores"]))
    for i, a in enumerate(inp["actions"]):
        try:
            seat, action = a["seat"], a["action"]
            if action == "place":
                hand.place(seat, *read_placement(a))
            elif action == "draw":
                hand.draw(seat)
            elif action == "pass":
                hand.pass_turn(seat)
            else:
                hand.end_turn(seat)
        except IllegalAction as e:
            raise Rejected(i, e)
    return {"rejected_at": None}


def move_name(move):
    tile, target, port = move
    return tile_text(tile) if target is None else f"{tile_text(tile)} {tile_text(target)} {port}"


def perft(hand, depth):
    """Count move sequences (spec/fixture-format.md, `perft`); forced actions are free."""
    hand.advance()
    if depth == 0 or hand.over:
        return 1
    total = 0
    for move in hand.legal_moves():
        child = hand.clone()
        child.place(child.to_act, *move)
        total += perft(child, depth - 1)
    return total


def run_perft(inp):
    hand = new_hand(inp, inp, list(inp["scores"]))
    hand.advance()
    divide = {}
    if not hand.over:
        for move in hand.legal_moves():
            child = hand.clone()
            child.place(child.to_act, *move)
            divide[move_name(move)] = perft(child, inp["depth"] - 1)
    nodes = sum(divide.values()) if divide else 1
    return {"nodes": nodes, "divide": dict(sorted(divide.items()))}


KINDS = {
    "layout": run_layout,
    "play": run_play,
    "settlement": run_settlement,
    "illegal": run_illegal,
    "perft": run_perft,
}


# ---------------------------------------------------------------------- protocol


def answer(msg):
    """One protocol message in, one answer out (None for `stop`)."""
    if msg.get("type") == "hello":
        return {
            "type": "hello",
            "protocol": "1.0",
            "name": "python-example",
            "version": "1.0" + ("+deliberate-error" if DELIBERATE_ERROR else ""),
            "language": "Python",
            "kinds": list(KINDS),
            "readings": READINGS,
        }
    seq = msg.get("seq", "")
    try:
        observations = KINDS[msg["kind"]](msg["input"])
        return {"type": "result", "seq": seq, "observations": observations}
    except Rejected as r:
        return {"type": "rejected", "seq": seq, "at": r.at, "rule": r.rule, "message": str(r)}
    except Exception as e:  # a bug or an unsupported input: say so, do not crash
        return {"type": "error", "seq": seq, "message": f"{type(e).__name__}: {e}"}


def main():
    for line in iter(sys.stdin.readline, ""):
        if not line.strip():
            continue
        msg = json.loads(line)
        if msg.get("type") == "stop":
            break
        sys.stdout.write(json.dumps(answer(msg)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
