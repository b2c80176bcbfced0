#!/usr/bin/env python3
"""allfives: a Fives-family engine playing Horse Race under "All Fives" house rules.

A persistent-mode conformance adapter (spec/protocol.md, 1.2; it answers a 1.1 or 1.0
runner in that version), which also works in one-shot mode. Standard library only.

House rules (see allfives.bugs.json and README.md):
  * only the first double of a hand is a spinner; later doubles are laid crosswise
    in the line and never branch;
  * the spinner's arms count as ends before they are started;
  * doubles and scoring tiles continue the turn, as in Horse Race;
  * a player who has started drawing may keep a playable tile and draw on;
  * a blocked hand whose lowest total is tied scores nothing;
  * a placed tile is not checked against the player's hand.
It plays layout, play, settlement and illegal requests (no perft), the individual
game of 2, 3 or 4 players (no partnership game), to any target from 10 to 200. It
does not know the specification's rule IDs: its refusals carry messages only.
"""

import json
import sys

NAME = "allfives"
VERSION = "3.4.2"
OUR_PROTOCOL = (1, 2)

CANONICAL = {
    "continuation_without_tile": "draw",
    "continuation": "compulsory",
    "opening_continuation": "earned",
    "drawn_tile_scope": "same-turn",
    "block_detection": "immediate",
    "branch_use": "both",
}
SUPPORTED_READINGS = {k: [v] for k, v in CANONICAL.items()}
KINDS = ["layout", "play", "settlement", "illegal"]
SEATINGS = ["2-players", "3-players", "4-players"]
TARGETS = lambda t: 10 <= t <= 200
HELLO_TARGETS_12 = [{"min": 10, "max": 200}]
HELLO_TARGETS_11 = list(range(10, 201))
KNOWS_RULE_IDS = False

DOUBLE_PORTS = ("linear-a", "linear-b", "branch-a", "branch-b")
SINGLE_PORTS = ("low", "high")
ALL_PORTS = set(DOUBLE_PORTS) | set(SINGLE_PORTS)


class Refusal(Exception):
    def __init__(self, rule, message):
        super().__init__(message)
        self.rule = rule
        self.message = message


class Unsupported(Exception):
    pass


def parse_tile(text):
    if not isinstance(text, str):
        raise Unsupported("tile is not a string: %r" % (text,))
    s = text.strip()
    if len(s) < 5 or s[0] != "[" or s[-1] != "]" or "|" not in s:
        raise Unsupported("bad tile notation: %r" % (text,))
    a, b = s[1:-1].split("|", 1)
    try:
        a, b = int(a), int(b)
    except ValueError:
        raise Unsupported("bad tile notation: %r" % (text,))
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise Unsupported("tile outside the double-six set: %r" % (text,))
    return (a, b) if a <= b else (b, a)


def tstr(t):
    return "[%d|%d]" % t


def pips(t):
    return t[0] + t[1]


def is_double(t):
    return t[0] == t[1]


def port_value(t, port):
    if is_double(t):
        return t[0]
    return t[0] if port == "low" else t[1]


class Layout:
    __slots__ = ("conns", "occ", "order", "spinner")

    def __init__(self):
        self.order = []
        self.occ = {}
        self.conns = []
        self.spinner = None  # house rule: only the first double of the hand spins

    def is_spinner(self, t):
        return t == self.spinner

    def clone(self):
        n = Layout.__new__(Layout)
        n.spinner = self.spinner
        n.order = list(self.order)
        n.occ = {t: dict(p) for t, p in self.occ.items()}
        n.conns = list(self.conns)
        return n

    def empty(self):
        return not self.order

    def ports(self, t):
        return DOUBLE_PORTS if is_double(t) else SINGLE_PORTS

    def canonical(self, target, port):
        """Resolve a mirror-image port name to its canonical name."""
        if not is_double(target):
            return port
        o = self.occ[target]
        if port == "linear-b" and not o["linear-a"] and not o["linear-b"]:
            return "linear-a"
        if (
            port == "branch-b"
            and self.is_spinner(target)
            and o["linear-a"]
            and o["linear-b"]
            and not o["branch-a"]
            and not o["branch-b"]
        ):
            return "branch-a"
        return port

    def branch_open(self, t, port, branch_use):
        """Is this (free) branch port available?"""
        if not self.is_spinner(t):
            return False
        o = self.occ[t]
        if not (o["linear-a"] and o["linear-b"]):
            return False
        if branch_use == "one":
            other = "branch-b" if port == "branch-a" else "branch-a"
            if o[other]:
                return False
        return True

    def available(self, branch_use):
        """Every available port: (tile, port, value), mirror images included."""
        out = []
        for t in self.order:
            o = self.occ[t]
            if is_double(t):
                for p in ("linear-a", "linear-b"):
                    if not o[p]:
                        out.append((t, p, t[0]))
                for p in ("branch-a", "branch-b"):
                    if not o[p] and self.branch_open(t, p, branch_use):
                        out.append((t, p, t[0]))
            else:
                if not o["low"]:
                    out.append((t, "low", t[0]))
                if not o["high"]:
                    out.append((t, "high", t[1]))
        return out

    def distinct_points(self, branch_use):
        """Available ports with mirror images once (canonical names)."""
        out = []
        for t in self.order:
            o = self.occ[t]
            if is_double(t):
                la, lb = o["linear-a"], o["linear-b"]
                if not la:
                    out.append((t, "linear-a", t[0]))
                elif not lb:
                    out.append((t, "linear-b", t[0]))
                if la and lb and self.is_spinner(t):
                    ba, bb = o["branch-a"], o["branch-b"]
                    if not ba and not bb:
                        out.append((t, "branch-a", t[0]))
                    elif branch_use == "both":
                        if not ba:
                            out.append((t, "branch-a", t[0]))
                        if not bb:
                            out.append((t, "branch-b", t[0]))
            else:
                if not o["low"]:
                    out.append((t, "low", t[0]))
                if not o["high"]:
                    out.append((t, "high", t[1]))
        return out

    def values_open(self, branch_use):
        vals = set()
        for t, p, v in self.available(branch_use):
            vals.add(v)
        return vals

    def playable(self, tile, branch_use):
        if not self.order:
            return True
        vals = self.values_open(branch_use)
        return tile[0] in vals or tile[1] in vals

    def contributions(self):
        out = []
        for t in self.order:
            o = self.occ[t]
            if is_double(t):
                if not o["linear-a"] or not o["linear-b"]:
                    out.append((t, None, 2 * t[0]))
                elif t == getattr(self, "spinner", t):
                    # house rule: the spinner's arms count as ends until started
                    for p in ("branch-a", "branch-b"):
                        if not o[p]:
                            out.append((t, p, t[0]))
            else:
                if not o["low"]:
                    out.append((t, "low", t[0]))
                if not o["high"]:
                    out.append((t, "high", t[1]))
        return out

    def count(self):
        return sum(v for _, _, v in self.contributions())

    def check(self, tile, target, port, branch_use, has_target, has_port):
        """Validate geometry; returns canonical port. Raises Refusal."""
        if not self.order:
            if has_target or has_port:
                raise Refusal("HR-MOVE-1", "the opening tile takes no target or port")
            return None
        if not has_target or not has_port:
            raise Refusal("HR-MOVE-1", "a placement after the opening needs a target and a port")
        if target not in self.occ:
            raise Refusal("HR-MOVE-1", "target %s is not in the layout" % tstr(target))
        if port not in self.ports(target):
            raise Refusal("HR-MOVE-1", "%r is not a port of %s" % (port, tstr(target)))
        o = self.occ[target]
        if port in ("branch-a", "branch-b") and not self.is_spinner(target):
            raise Refusal("HR-SPIN-1", "%s is not the spinner: only the first double branches" % tstr(target))
        if port in ("branch-a", "branch-b") and (not o["linear-a"] or not o["linear-b"]):
            raise Refusal("HR-SPIN-2", "a linear side of %s is still free" % tstr(target))
        port = self.canonical(target, port)
        if o[port]:
            raise Refusal("HR-PLACE-1", "%s %s is occupied" % (tstr(target), port))
        if port in ("branch-a", "branch-b") and branch_use == "one" and not self.branch_open(target, port, branch_use):
            raise Refusal("HR-SPIN-3", "the other branch of %s is started" % tstr(target))
        v = port_value(target, port)
        if v != tile[0] and v != tile[1]:
            raise Refusal("HR-PLACE-1", "%s does not match %s %s (%d)" % (tstr(tile), tstr(target), port, v))
        return port

    def place(self, tile, target, port):
        if is_double(tile) and self.spinner is None:
            self.spinner = tile
        if is_double(tile):
            self.occ[tile] = {"linear-a": False, "linear-b": False, "branch-a": False, "branch-b": False}
        else:
            self.occ[tile] = {"low": False, "high": False}
        self.order.append(tile)
        if target is None:
            return
        v = port_value(target, port)
        if is_double(tile):
            mine = "linear-a"
        else:
            mine = "low" if tile[0] == v else "high"
        self.occ[target][port] = True
        self.occ[tile][mine] = True
        self.conns.append((target, port, tile, mine))

    def snapshot(self, branch_use):
        return {
            "tiles": sorted(tstr(t) for t in self.order),
            "spinners": [tstr(self.spinner)] if self.spinner is not None else [],
            "connections": [[{"tile": tstr(a), "port": p}, {"tile": tstr(b), "port": q}] for a, p, b, q in self.conns],
            "attachment_points": [{"tile": tstr(t), "port": p, "value": v} for t, p, v in self.available(branch_use)],
            "contributions": [
                ({"tile": tstr(t), "value": v} if p is None else {"tile": tstr(t), "port": p, "value": v})
                for t, p, v in self.contributions()
            ],
        }


def round5(p):
    r = p % 5
    if r == 0:
        return p
    if r <= 2:
        return p - r
    return p + 5 - r


class Game:
    """One hand of play."""

    def __init__(self, mode, nseats, scores, target, readings, trace=True):
        self.mode = mode
        self.n = nseats
        self.scores = list(scores)
        self.target = target
        self.r = readings
        self.branch_use = readings["branch_use"]
        self.trace = trace
        self.events = [] if trace else None
        self.layout = Layout()
        self.hands = [[] for _ in range(nseats)]
        self.boneyard = []
        self.seat = 0
        self.cont = False  # a continuation is held
        self.opening_turn = False
        self.pending = None  # a playable drawn tile to place
        self.drawn_turn = set()  # the tiles drawn in this turn
        self.drew = False  # a draw was made in the current turn step (continuation)
        self.drawn_hand = set()  # tiles drawn during the hand (whole-hand scope)
        self.passes = 0
        self.over = False  # hand over
        self.match_over = False
        self.match_winners = []
        self.last_end = None  # (seat, rule) of the turn that just ended
        self.next_acted = False
        self.next_opener = None

    def clone(self):
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.layout = self.layout.clone()
        g.hands = [list(h) for h in self.hands]
        g.boneyard = list(self.boneyard)
        g.scores = list(self.scores)
        g.drawn_hand = set(self.drawn_hand)
        g.drawn_turn = set(self.drawn_turn)
        g.events = None
        g.trace = False
        return g

    # ---- sides
    def side(self, seat):
        return seat % 2 if self.mode == "partnership" else seat

    def nsides(self):
        return 2 if self.mode == "partnership" else self.n

    def emit(self, ev):
        if self.trace:
            self.events.append(ev)

    # ---- legality
    def has_legal(self, seat):
        if not self.layout.order:
            return bool(self.hands[seat])
        vals = self.layout.values_open(self.branch_use)
        for t in self.hands[seat]:
            if t[0] in vals or t[1] in vals:
                return True
        return False

    def anyone_can_place(self):
        if not self.layout.order:
            return True
        vals = self.layout.values_open(self.branch_use)
        for h in self.hands:
            for t in h:
                if t[0] in vals or t[1] in vals:
                    return True
        return False

    def blocked_now(self):
        return not self.boneyard and not self.anyone_can_place()

    def legal_moves(self):
        s = self.seat
        tiles = sorted(self.drawn_turn) if self.drawn_turn else sorted(set(self.hands[s]))
        moves = []
        if not self.layout.order:
            for t in tiles:
                moves.append((t, None, None))
            return moves
        pts = self.layout.distinct_points(self.branch_use)
        for t in tiles:
            for tt, p, v in pts:
                if v == t[0] or v == t[1]:
                    moves.append((t, tt, p))
        return moves

    def can_end_turn(self):
        return self.r["continuation"] == "optional" and self.cont and not self.drew and self.pending is None

    # ---- turn changes
    def end_turn(self, rule):
        s = self.seat
        self.last_end = (s, rule)
        self.next_acted = False
        self.seat = (s + 1) % self.n
        self.cont = False
        self.pending = None
        self.drew = False
        self.drawn_turn = set()
        self.opening_turn = False

    def acted(self):
        self.next_acted = True

    # ---- hand end
    def seat_pips(self):
        return [sum(pips(t) for t in h) for h in self.hands]

    def settle_credits(self, winners, blocked):
        sp = self.seat_pips()
        credits = [0] * self.nsides()
        if blocked and len(winners) > 1:
            return credits  # house rule: a tied blocked hand scores nothing
        for w in winners:
            total = sum(sp[s] for s in range(self.n) if self.side(s) != w)
            credits[w] = round5(total) // 5
        return credits

    def blocked_winners(self):
        sp = self.seat_pips()
        tot = [0] * self.nsides()
        for s in range(self.n):
            tot[self.side(s)] += sp[s]
        low = min(tot)
        return [i for i, v in enumerate(tot) if v == low]

    def finish(self, reason, winners):
        self.over = True
        sp = self.seat_pips()
        if reason == "match":
            credits = [0] * self.nsides()
            next_opener = None
        else:
            credits = self.settle_credits(winners, reason == "blocked")
            for i, c in enumerate(credits):
                self.scores[i] += c
            next_opener = self.seat if reason == "domino" else None
        mw = [i for i, v in enumerate(self.scores) if v >= self.target]
        if mw:
            self.match_over = True
            self.match_winners = mw
            next_opener = None
        self.next_opener = next_opener
        self.emit(
            {
                "event": "hand-end",
                "reason": reason,
                "winners": sorted(winners),
                "pips": sp,
                "credits": credits,
                "scores": list(self.scores),
                "next_opener": next_opener,
            }
        )
        if mw:
            self.emit({"event": "match-end", "winners": mw, "scores": list(self.scores)})

    def block(self):
        self.finish("blocked", self.blocked_winners())

    # ---- actions (validated elsewhere)
    def do_place(self, tile, target, port):
        s = self.seat
        self.acted()
        opening = not self.layout.order
        if self.r["drawn_tile_scope"] == "whole-hand":
            exception = tile in self.drawn_turn or tile in self.drawn_hand
        else:
            exception = tile in self.drawn_turn
        if tile in self.hands[s]:
            self.hands[s].remove(tile)
        self.layout.place(tile, target, port)
        count = self.layout.count()
        credit_raw = count if (count > 0 and count % 5 == 0) else 0
        credit = credit_raw // 5
        side = self.side(s)
        self.scores[side] += credit
        self.passes = 0
        earned = (not exception) and (is_double(tile) or credit_raw > 0)
        if opening and self.r["opening_continuation"] == "never":
            earned = False
        ev = {"event": "place", "seat": s, "tile": tstr(tile)}
        if target is not None:
            ev["target"] = tstr(target)
            ev["port"] = port
        ev.update({"count": count, "credit_raw": credit_raw, "credit": credit, "continues": False, "drawn": exception})
        self.emit(ev)
        if self.scores[side] >= self.target:
            self.finish("match", [])
            return
        if not self.hands[s]:
            self.finish("domino", [side])
            return
        if self.r["block_detection"] == "immediate" and self.blocked_now():
            self.block()
            return
        if earned:
            ev["continues"] = True
            self.cont = True
            self.pending = None
            self.drew = False
        else:
            if exception:
                rule = "HR-TURN-3"
            elif not is_double(tile) and credit_raw == 0:
                rule = "HR-TURN-1"
            else:
                rule = None
            self.end_turn(rule)

    def do_draw(self):
        s = self.seat
        self.acted()
        t = self.boneyard.pop(0)
        self.hands[s].append(t)
        self.drawn_hand.add(t)
        self.drawn_turn.add(t)
        self.drew = True
        self.emit({"event": "draw", "seat": s, "tile": tstr(t)})
        if self.pending is None and self.layout.playable(t, self.branch_use):
            self.pending = t
        if self.r["block_detection"] == "immediate" and self.blocked_now():
            self.block()

    def do_pass(self):
        s = self.seat
        self.acted()
        self.emit({"event": "pass", "seat": s})
        self.passes += 1
        self.end_turn(None)
        if self.r["block_detection"] == "round-of-passes" and self.passes >= self.n:
            self.block()

    def do_end_turn(self):
        s = self.seat
        self.acted()
        self.emit({"event": "end-turn", "seat": s})
        self.end_turn(None)

    # ---- validation of chosen actions
    def check_seat(self, seat):
        if self.match_over:
            raise Refusal("HR-MATCH-3", "the match is over")
        if self.over:
            raise Refusal("HR-END-3", "the hand is over")
        if seat != self.seat:
            if self.last_end is not None and self.last_end[0] == seat and not self.next_acted and self.last_end[1]:
                raise Refusal(self.last_end[1], "seat %r: its turn has ended" % (seat,))
            raise Refusal("HR-SEAT-3", "seat %r is not to act (seat %d is)" % (seat, self.seat))

    def check_place(self, seat, tile, target, port, has_target, has_port):
        self.check_seat(seat)
        if tile in self.layout.occ:
            raise Refusal("HR-PLACE-3", "%s is already on the table" % tstr(tile))
        if self.drawn_turn and tile not in self.drawn_turn:
            raise Refusal("HR-DRAW-3", "place one of the tiles you drew")
        return self.layout.check(tile, target, port, self.branch_use, has_target, has_port)

    def check_draw(self, seat):
        self.check_seat(seat)
        if self.has_legal(seat) and not self.drawn_turn:
            raise Refusal("HR-DRAW-1", "seat %d holds a legal placement" % seat)
        if not self.boneyard:
            raise Refusal("HR-DRAW-4", "the boneyard is empty")

    def check_pass(self, seat):
        self.check_seat(seat)
        if self.pending is not None or self.has_legal(seat) or self.boneyard:
            raise Refusal("HR-PASS-1", "seat %d may not pass" % seat)

    def check_end_turn(self, seat):
        self.check_seat(seat)
        if not self.can_end_turn():
            raise Refusal("HR-DRAW-1", "seat %d may not end the turn" % seat)

    # ---- automatic progress
    def auto_lapse(self):
        """Under continuation_without_tile=end-turn, a continuation without a
        playable tile lapses by itself."""
        while (
            not self.over
            and self.cont
            and self.pending is None
            and self.r["continuation_without_tile"] == "end-turn"
            and not self.has_legal(self.seat)
        ):
            self.emit({"event": "end-turn", "seat": self.seat})
            self.end_turn(None)

    def auto(self, want_end_turn=False):
        """Make the forced actions until a choice is needed or the hand is over.
        Returns True when a choice (placement or end of turn) is needed."""
        while not self.over:
            if (
                self.r["block_detection"] == "immediate"
                and not self.boneyard
                and self.pending is None
                and not self.anyone_can_place()
            ):
                self.block()
                return False
            if self.pending is not None:
                return True
            s = self.seat
            if want_end_turn and self.can_end_turn():
                return True
            if self.has_legal(s):
                return True
            if self.cont and self.r["continuation_without_tile"] == "end-turn":
                self.emit({"event": "end-turn", "seat": s})
                self.end_turn(None)
                continue
            if self.boneyard:
                self.do_draw()
                continue
            self.do_pass()
        return False


# ---------------------------------------------------------------- inputs


def table_of(inp):
    mode = inp.get("mode", "individual")
    n = inp.get("seats")
    if mode not in ("individual", "partnership"):
        raise Unsupported("unknown mode %r" % (mode,))
    if not isinstance(n, int) or not 2 <= n <= 4:
        raise Unsupported("unsupported number of seats %r" % (n,))
    if mode == "partnership" and n != 4:
        raise Unsupported("a partnership game needs 4 seats")
    if mode == "partnership" and "partnership" not in SEATINGS:
        raise Unsupported("the partnership game is not supported")
    if mode == "individual" and ("%d-players" % n) not in SEATINGS:
        raise Unsupported("%d players are not supported" % n)
    target = inp.get("target", 61)
    if not isinstance(target, int):
        raise Unsupported("bad target %r" % (target,))
    if TARGETS is not None and not TARGETS(target):
        raise Unsupported("target %d is not supported" % target)
    nsides = 2 if mode == "partnership" else n
    scores = inp.get("scores", [0] * nsides)
    if len(scores) != nsides:
        raise Unsupported("scores do not match the table")
    return mode, n, list(scores), target


def placement_parts(p):
    tile = parse_tile(p.get("tile"))
    has_t = "target" in p and p["target"] is not None
    has_p = "port" in p and p["port"] is not None
    target = parse_tile(p["target"]) if has_t else None
    port = p.get("port") if has_p else None
    if has_p and port not in ALL_PORTS:
        port = str(port)
    return tile, target, port, has_t, has_p


def setup_game(mode, n, scores, target, readings, deal, trace=True):
    g = Game(mode, n, scores, target, readings, trace)
    g.hands = [[parse_tile(t) for t in h] for h in deal["hands"]]
    if len(g.hands) != n:
        raise Unsupported("hands do not match the table")
    g.boneyard = [parse_tile(t) for t in deal.get("boneyard", [])]
    g.seat = deal.get("opener", 0)
    for p in deal.get("layout") or []:
        tile, target, port, ht, hp = placement_parts(p)
        try:
            port = g.layout.check(tile, target, port, g.branch_use, ht, hp)
        except Refusal as e:
            raise Unsupported("the given layout is not legal: " + e.message)
        g.layout.place(tile, target, port)
    return g


class Rejected(Exception):
    def __init__(self, at, refusal, observations=None):
        super().__init__(refusal.message)
        self.at = at
        self.refusal = refusal
        self.observations = observations


# ---------------------------------------------------------------- kinds


def run_layout(inp, readings):
    bu = readings["branch_use"]
    lay = Layout()
    for p in inp.get("setup") or []:
        tile, target, port, ht, hp = placement_parts(p)
        try:
            port = lay.check(tile, target, port, bu, ht, hp)
        except Refusal as e:
            raise Unsupported("setup is not legal: " + e.message)
        lay.place(tile, target, port)
    steps = []
    for i, p in enumerate(inp.get("steps") or []):
        tile, target, port, ht, hp = placement_parts(p)
        try:
            if tile in lay.occ:
                raise Refusal("HR-PLACE-3", "%s is already in the layout" % tstr(tile))
            port = lay.check(tile, target, port, bu, ht, hp)
        except Refusal as e:
            raise Rejected(i, e, {"steps": steps})
        lay.place(tile, target, port)
        snap = lay.snapshot(bu)
        c = lay.count()
        raw = c if c > 0 and c % 5 == 0 else 0
        snap.update({"sum": c, "credit_raw": raw, "credit": raw // 5})
        steps.append(snap)
    return {"steps": steps}


def run_play(inp, readings):
    mode, n, scores, target = table_of(inp)
    out_hands = []
    idx = 0
    match_winners = []
    for deal in inp.get("hands") or []:
        g = setup_game(mode, n, scores, target, readings, deal)
        out_hands.append({"events": g.events})
        entries = list(deal.get("placements") or [])
        k = 0
        while True:
            nxt = entries[k] if k < len(entries) else None
            want_end = isinstance(nxt, dict) and bool(nxt.get("end_turn"))
            need = g.auto(want_end)
            if not need:
                break
            if nxt is None:
                break
            try:
                if nxt.get("end_turn"):
                    g.check_end_turn(g.seat)
                    g.do_end_turn()
                else:
                    tile, tg, port, ht, hp = placement_parts(nxt)
                    port = g.check_place(g.seat, tile, tg, port, ht, hp)
                    g.do_place(tile, tg, port)
            except Refusal as e:
                raise Rejected(idx + k, e, {"hands": out_hands})
            k += 1
        scores = g.scores
        match_winners = g.match_winners
        if k < len(entries):
            # entries left after the end of the hand
            try:
                g.check_seat(g.seat)
                raise Refusal("HR-END-3", "the hand is over")
            except Refusal as e:
                raise Rejected(idx + k, e, {"hands": out_hands})
        idx += len(entries)
        if not g.over or g.match_over:
            break
    return {"hands": out_hands, "scores": scores, "match_winners": match_winners}


def run_settlement(inp, readings):
    mode, n, scores, target = table_of(inp)
    g = Game(mode, n, scores, target, readings, trace=False)
    g.hands = [[parse_tile(t) for t in h] for h in inp["hands"]]
    ended = inp.get("ended_by")
    if ended == "blocked":
        winners = g.blocked_winners()
    elif isinstance(ended, int) and 0 <= ended < n:
        winners = [g.side(ended)]
    else:
        raise Unsupported("bad ended_by %r" % (ended,))
    credits = g.settle_credits(winners, ended == "blocked")
    for i, c in enumerate(credits):
        g.scores[i] += c
    mw = [i for i, v in enumerate(g.scores) if v >= target]
    return {"winners": winners, "credits": credits, "scores": g.scores, "match_winners": mw}


def run_illegal(inp, readings):
    mode, n, scores, target = table_of(inp)
    deal = inp.get("deal") or inp
    g = setup_game(mode, n, scores, target, readings, deal, trace=False)
    if g.r["block_detection"] == "immediate" and g.blocked_now():
        g.block()
    for i, a in enumerate(inp.get("actions") or []):
        g.auto_lapse()
        seat = a.get("seat")
        kind = a.get("action")
        try:
            if kind == "place":
                tile, tg, port, ht, hp = placement_parts(a)
                port = g.check_place(seat, tile, tg, port, ht, hp)
                g.do_place(tile, tg, port)
            elif kind == "draw":
                g.check_draw(seat)
                g.do_draw()
            elif kind == "pass":
                g.check_pass(seat)
                g.do_pass()
            elif kind == "end-turn":
                g.check_end_turn(seat)
                g.do_end_turn()
            else:
                raise Unsupported("unknown action %r" % (kind,))
        except Refusal as e:
            raise Rejected(i, e)
    return {"rejected_at": None}


def move_name(m):
    t, tg, p = m
    if tg is None:
        return tstr(t)
    return "%s %s %s" % (tstr(t), tstr(tg), p)


def perft_moves(g):
    moves = [("place", m) for m in g.legal_moves()]
    if g.can_end_turn():
        moves.append(("end", None))
    return moves


def child(g, mv):
    c = g.clone()
    kind, m = mv
    if kind == "end":
        c.do_end_turn()
    else:
        c.do_place(*m)
    c.auto(c.r["continuation"] == "optional")
    return c


def perft(g, d, memo):
    if d == 0 or g.over:
        return 1
    moves = perft_moves(g)
    if d == 1:
        return len(moves)
    key = (
        frozenset(g.layout.conns),
        g.layout.order[0] if g.layout.order else None,
        tuple(tuple(sorted(h)) for h in g.hands),
        len(g.boneyard),
        g.seat,
        g.cont,
        g.pending,
        g.drew,
        tuple(g.scores),
        g.passes,
        frozenset(g.drawn_hand),
        d,
    )
    v = memo.get(key)
    if v is not None:
        return v
    total = 0
    for mv in moves:
        total += perft(child(g, mv), d - 1, memo)
    memo[key] = total
    return total


def run_perft(inp, readings):
    mode, n, scores, target = table_of(inp)
    deal = inp.get("deal") or inp
    depth = inp.get("depth")
    if not isinstance(depth, int) or depth < 0:
        raise Unsupported("bad depth %r" % (depth,))
    g = setup_game(mode, n, scores, target, readings, deal, trace=False)
    g.auto(g.r["continuation"] == "optional")
    if g.over or depth == 0:
        return {"nodes": 1, "divide": {}}
    memo = {}
    divide = {}
    for mv in perft_moves(g):
        name = "end-turn" if mv[0] == "end" else move_name(mv[1])
        divide[name] = perft(child(g, mv), depth - 1, memo)
    return {"nodes": sum(divide.values()), "divide": divide}


RUNNERS = {
    "layout": run_layout,
    "play": run_play,
    "settlement": run_settlement,
    "illegal": run_illegal,
    "perft": run_perft,
}


# ---------------------------------------------------------------- protocol


def parse_version(v):
    try:
        a, b = str(v).split(".")
        return (int(a), int(b))
    except Exception:
        return None


def hello_answer(msg):
    theirs = parse_version(msg.get("protocol"))
    v = OUR_PROTOCOL
    if theirs is not None and theirs[0] == v[0] and theirs < v:
        v = theirs
    ans = {
        "type": "hello",
        "protocol": "%d.%d" % v,
        "name": NAME,
        "version": VERSION,
        "language": "Python",
        "kinds": list(KINDS),
    }
    if v >= (1, 1):
        ans["readings"] = {k: (vals if len(vals) > 1 else vals[0]) for k, vals in SUPPORTED_READINGS.items()}
    else:
        ans["readings"] = {k: vals[0] for k, vals in SUPPORTED_READINGS.items()}
    if v >= (1, 2):
        ans["seatings"] = list(SEATINGS)
        if HELLO_TARGETS_12 is not None:
            ans["targets"] = HELLO_TARGETS_12
    elif v >= (1, 1):
        if HELLO_TARGETS_11 is not None:
            ans["targets"] = HELLO_TARGETS_11
    return ans, v


def run_answer(msg, version):
    seq = msg.get("seq")
    kind = msg.get("kind")
    try:
        if kind not in KINDS:
            raise Unsupported("not implemented: %s" % (kind,))
        readings = dict(CANONICAL)
        given = msg.get("readings")
        if isinstance(given, dict):
            readings.update(given)
        for k, v in readings.items():
            if k in SUPPORTED_READINGS and v not in SUPPORTED_READINGS[k]:
                raise Unsupported("reading %s=%s is not supported" % (k, v))
        obs = RUNNERS[kind](msg.get("input") or {}, readings)
        return {"type": "result", "seq": seq, "observations": obs}
    except Rejected as r:
        ans = {"type": "rejected", "seq": seq, "at": r.at, "message": r.refusal.message}
        if KNOWS_RULE_IDS and r.refusal.rule:
            ans["rule"] = r.refusal.rule
        if version >= (1, 2) and r.observations is not None and kind in ("play", "layout"):
            ans["observations"] = r.observations
        return ans
    except Refusal as e:
        return {"type": "rejected", "seq": seq, "at": None, "message": e.message}
    except Unsupported as e:
        return {"type": "error", "seq": seq, "message": str(e)}
    except Exception as e:  # never crash on an input
        return {"type": "error", "seq": seq, "message": "internal error: %s: %s" % (type(e).__name__, e)}


def main():
    version = OUR_PROTOCOL
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        t = msg.get("type")
        if t == "hello":
            ans, version = hello_answer(msg)
        elif t == "run":
            ans = run_answer(msg, version)
        elif t == "stop":
            break
        else:
            ans = {"type": "error", "seq": msg.get("seq"), "message": "unknown message type %r" % (t,)}
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
