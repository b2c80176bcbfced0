#!/usr/bin/env node
// horse-race.js: an EXAMPLE Horse Race engine with a conformance-protocol adapter.
//
// Written from spec/rules.md, spec/interpretations.md, spec/fixture-format.md and
// spec/protocol.md only. It supports two fixture kinds, `layout` and `settlement`,
// under the canonical readings of the register.
//
//   node examples/javascript/horse-race.js          # reads JSON lines on stdin
//
// It answers each line as soon as it arrives and exits 0 on {"type": "stop"} or at the
// end of its input, so it works in persistent mode and in one-shot mode alike.
//
// DELIBERATE ERROR (see README.md): unless HORSERACE_EXAMPLE_CORRECT=1 is set, the layout
// observations leave out counted contributions whose value is 0, which breaks HR-COUNT-4.
// Look for "DELIBERATE ERROR" below.

'use strict';

const readline = require('readline');

const CORRECT = process.env.HORSERACE_EXAMPLE_CORRECT === '1';

// An action the rules forbid. `rule` is the spec rule ID it breaks.
class RuleError extends Error {
  constructor(rule, message) {
    super(message);
    this.rule = rule;
  }
}

// ---------------------------------------------------------------------------------------
// Tiles (HR-SET-1, HR-SET-2, HR-MOVE-2)
// ---------------------------------------------------------------------------------------

// "[5|2]" -> [2, 5]. Either half may come first on input (HR-MOVE-2); we keep low first.
function parseTile(text) {
  const m = /^\[([0-6])\|([0-6])\]$/.exec(String(text).trim());
  if (!m) throw new RuleError('HR-SET-1', `not a tile of the double-six set: ${text}`);
  const x = Number(m[1]);
  const y = Number(m[2]);
  return [Math.min(x, y), Math.max(x, y)];
}

// [2, 5] -> "[2|5]": the canonical text, low half first.
function tileText([a, b]) {
  return `[${a}|${b}]`;
}

// The pip value of a tile is the sum of its halves (HR-SET-2).
function pips(text) {
  const [a, b] = parseTile(text);
  return a + b;
}

// Canonical order: plain code-point comparison of strings (tile text, then port name).
function compareStrings(x, y) {
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------
// The layout (HR-MOVE-1, HR-MOVE-2, HR-PLACE-1, HR-SPIN-1..3)
// ---------------------------------------------------------------------------------------

// A non-double [a|b] has two ports, `low` (a) and `high` (b). A double [v|v] has four,
// all showing v: two linear sides and two branches (HR-MOVE-1).
const NON_DOUBLE_PORTS = ['low', 'high'];
const DOUBLE_PORTS = ['linear-a', 'linear-b', 'branch-a', 'branch-b'];

class Layout {
  constructor() {
    this.tiles = new Map(); // tile text -> { a, b, double, occupied: Set of port names }
    this.connections = []; // [{tile, port} of the target, {tile, port} of the placed tile]
  }

  // The value a port shows: every port of a double shows v (HR-PLACE-1).
  static portValue(t, port) {
    if (t.double) return t.a;
    return port === 'low' ? t.a : t.b;
  }

  // Branches are available only once both linear sides are occupied (HR-SPIN-2); then
  // both branches stay available until used (HR-SPIN-3, canonical branch_use=both).
  static branchesOpen(t) {
    return t.double && t.occupied.has('linear-a') && t.occupied.has('linear-b');
  }

  // The free ports of a tile that may receive a tile: the attachment points.
  static availablePorts(t) {
    if (!t.double) return NON_DOUBLE_PORTS.filter((p) => !t.occupied.has(p));
    return DOUBLE_PORTS.filter((p) => {
      if (t.occupied.has(p)) return false;
      return p.startsWith('linear') || Layout.branchesOpen(t);
    });
  }

  // Mirror-image ports (HR-MOVE-2): the two linear sides of an opening double while both
  // are free, and the two branches of a spinner while both are free, are one move, named
  // by the A port. (Branches are checked against HR-SPIN-2 afterwards.)
  static canonicalPort(t, port) {
    if (!t.double) return port;
    if (port === 'linear-b' && !t.occupied.has('linear-a') && !t.occupied.has('linear-b')) {
      return 'linear-a';
    }
    if (port === 'branch-b' && !t.occupied.has('branch-a') && !t.occupied.has('branch-b')) {
      return 'branch-a';
    }
    return port;
  }

  // Place one tile: {tile} for the opening tile, {tile, target, port} afterwards.
  // Checks follow the order of spec/rules.md ("Order of checks for illegal actions").
  place(placement) {
    const [a, b] = parseTile(placement.tile);
    const text = tileText([a, b]);
    const hasTarget = placement.target !== undefined && placement.target !== null;
    const hasPort = placement.port !== undefined && placement.port !== null;
    // A tile already on the layout is not in anyone's hand (HR-PLACE-3, HR-SET-1).
    if (this.tiles.has(text)) throw new RuleError('HR-PLACE-3', `${text} is already on the layout`);
    const tile = { a, b, double: a === b, occupied: new Set() };

    // The opening tile has no target; every later placement must name one (HR-MOVE-1).
    if (this.tiles.size === 0) {
      if (hasTarget || hasPort) throw new RuleError('HR-MOVE-1', 'the opening tile has no target');
      this.tiles.set(text, tile); // all its ports are free (HR-OPEN-2)
      return;
    }
    if (!hasTarget || !hasPort) throw new RuleError('HR-MOVE-1', 'a target tile and port are required');
    const targetText = tileText(parseTile(placement.target));
    const target = this.tiles.get(targetText);
    if (!target) throw new RuleError('HR-MOVE-1', `${targetText} is not on the layout`);
    const ports = target.double ? DOUBLE_PORTS : NON_DOUBLE_PORTS;
    if (!ports.includes(placement.port)) {
      throw new RuleError('HR-MOVE-1', `${placement.port} is not a port of ${targetText}`);
    }
    const port = Layout.canonicalPort(target, placement.port);
    if (port.startsWith('branch') && !Layout.branchesOpen(target)) {
      throw new RuleError('HR-SPIN-2', `a linear side of ${targetText} is still free`);
    }
    if (target.occupied.has(port)) throw new RuleError('HR-PLACE-1', `${targetText} ${port} is occupied`);
    const value = Layout.portValue(target, port);
    if (a !== value && b !== value) {
      throw new RuleError('HR-PLACE-1', `${text} does not match ${targetText} ${port} (${value})`);
    }

    // Touching (HR-MOVE-1): a double joins by linear-a (HR-SPIN-1); a non-double by the
    // half equal to the target's value, so its other half becomes the new free end.
    const ownPort = tile.double ? 'linear-a' : a === value ? 'low' : 'high';
    tile.occupied.add(ownPort);
    target.occupied.add(port);
    this.tiles.set(text, tile);
    this.connections.push([{ tile: targetText, port }, { tile: text, port: ownPort }]);
  }

  // The counted contributions (HR-COUNT-1):
  //  - each free port of a non-double counts its value (an opening non-double has two,
  //    HR-COUNT-5);
  //  - a double with at least one free linear side counts 2 x v once (HR-COUNT-2, HRI-18);
  //  - an interior double and every branch port count nothing (HR-COUNT-3).
  contributions() {
    const list = [];
    for (const [text, t] of this.tiles) {
      if (t.double) {
        if (!t.occupied.has('linear-a') || !t.occupied.has('linear-b')) {
          addContribution(list, { tile: text, value: 2 * t.a });
        }
      } else {
        for (const port of NON_DOUBLE_PORTS) {
          if (!t.occupied.has(port)) {
            addContribution(list, { tile: text, port, value: Layout.portValue(t, port) });
          }
        }
      }
    }
    return list;
  }

  // One snapshot, in the canonical encoding of spec/fixture-format.md.
  snapshot() {
    const tiles = [...this.tiles.keys()].sort(compareStrings);
    const spinners = tiles.filter((text) => this.tiles.get(text).double); // HR-SPIN-1
    const attachmentPoints = [];
    for (const [text, t] of this.tiles) {
      for (const port of Layout.availablePorts(t)) {
        attachmentPoints.push({ tile: text, port, value: Layout.portValue(t, port) });
      }
    }
    const contributions = this.contributions();
    const sum = contributions.reduce((total, c) => total + c.value, 0); // HR-COUNT-1
    // HR-CREDIT-1: the credit is the count when it is a positive multiple of five.
    // HR-CREDIT-2: displayed points are raw points divided by five.
    const creditRaw = sum > 0 && sum % 5 === 0 ? sum : 0;
    return {
      tiles,
      spinners,
      connections: [...this.connections].sort(
        (x, y) =>
          compareStrings(x[0].tile, y[0].tile) ||
          compareStrings(x[0].port, y[0].port) ||
          compareStrings(x[1].tile, y[1].tile),
      ),
      attachment_points: attachmentPoints.sort(byTileThenPort),
      contributions: contributions.sort(byTileThenPort),
      sum,
      credit_raw: creditRaw,
      credit: creditRaw / 5,
    };
  }
}

// HR-COUNT-4: a counted end of value zero is still a counted end and MUST be listed.
function addContribution(list, contribution) {
  // DELIBERATE ERROR (HR-COUNT-4), on unless HORSERACE_EXAMPLE_CORRECT=1:
  // a truthiness test (`if (value)`) silently drops contributions of value 0. The sum is
  // unchanged (0 adds nothing), so only the listing of zero ends is wrong.
  if (!CORRECT && !contribution.value) return;
  list.push(contribution);
}

// Sort by tile text, then port name; a double's whole contribution has no port and
// sorts first.
function byTileThenPort(x, y) {
  return compareStrings(x.tile, y.tile) || compareStrings(x.port || '', y.port || '');
}

// ---------------------------------------------------------------------------------------
// Fixture kind `layout`: optional `setup` placements, then one snapshot per step.
// ---------------------------------------------------------------------------------------

function runLayout(input) {
  const layout = new Layout();
  for (const placement of input.setup || []) {
    try {
      layout.place(placement);
    } catch (e) {
      if (e instanceof RuleError) throw new Error(`setup placement refused (${e.rule}): ${e.message}`);
      throw e;
    }
  }
  const steps = [];
  (input.steps || []).forEach((placement, index) => {
    try {
      layout.place(placement);
    } catch (e) {
      if (e instanceof RuleError) e.at = index; // reported as `rejected` at this step
      throw e;
    }
    steps.push(layout.snapshot());
  });
  return { steps };
}

// ---------------------------------------------------------------------------------------
// Fixture kind `settlement` (HR-SEAT-1, HR-SEAT-2, HR-END-1, HR-END-2, HR-SETTLE-1..3,
// HR-MATCH-2)
// ---------------------------------------------------------------------------------------

// HR-SETTLE-1: round one total P to the nearest multiple of five (remainder 1 or 2 down,
// 3 or 4 up), then divide by five.
function settlementCredit(total) {
  const r = total % 5;
  const rounded = r === 0 ? total : r <= 2 ? total - r : total + 5 - r;
  return rounded / 5;
}

function runSettlement(input) {
  const { mode, seats, scores, target, hands, ended_by: endedBy } = input;
  // HR-SEAT-1: individual with 2-4 players, or partnership with exactly 4.
  const partnership = mode === 'partnership';
  if (mode !== 'individual' && !partnership) throw new Error(`unknown mode: ${mode}`);
  if (seats < 2 || seats > 4 || (partnership && seats !== 4) || hands.length !== seats) {
    throw new Error(`not a game of Horse Race: ${mode} with ${seats} seats`);
  }
  // HR-SEAT-2: partners sit opposite, side 0 = seats 0 and 2, side 1 = seats 1 and 3;
  // in the individual game each seat is its own side.
  const sides = partnership ? 2 : seats;
  const sideOf = (seat) => (partnership ? seat % 2 : seat);
  if (scores.length !== sides) throw new Error(`expected ${sides} scores`);

  // HR-SET-2: a side's remaining total is the sum of its players' pips.
  const sidePips = new Array(sides).fill(0);
  hands.forEach((hand, seat) => {
    for (const t of hand) sidePips[sideOf(seat)] += pips(t);
  });

  let winners;
  if (endedBy === 'blocked') {
    // HR-END-2: the side(s) with the lowest remaining total win; ties all win (HR-SETTLE-3).
    const lowest = Math.min(...sidePips);
    winners = sidePips.map((p, side) => side).filter((side) => sidePips[side] === lowest);
  } else {
    // HR-END-1: the side of the player who placed their last tile wins.
    if (!Number.isInteger(endedBy) || endedBy < 0 || endedBy >= seats) {
      throw new Error(`ended_by must be a seat or "blocked": ${endedBy}`);
    }
    winners = [sideOf(endedBy)];
  }

  // HR-SETTLE-2/3: each winning side counts all the other sides' pips (co-winners
  // included, never its own or its partner's), one full credit per side, not divided.
  const totalPips = sidePips.reduce((s, p) => s + p, 0);
  const credits = new Array(sides).fill(0);
  for (const side of winners) credits[side] = settlementCredit(totalPips - sidePips[side]);

  // HR-MATCH-2: credits are applied together; every side at or over the target wins.
  const after = scores.map((score, side) => score + credits[side]);
  const matchWinners = after.map((s, side) => side).filter((side) => after[side] >= target);
  return { winners, credits, scores: after, match_winners: matchWinners };
}

// ---------------------------------------------------------------------------------------
// The protocol adapter (spec/protocol.md)
// ---------------------------------------------------------------------------------------

const HELLO = {
  type: 'hello',
  protocol: '1.0',
  name: 'horse-race-js-example',
  version: '0.1.0',
  language: 'JavaScript',
  kinds: ['layout', 'settlement'],
  // The canonical reading of every variant of spec/interpretations.md.
  readings: {
    continuation_without_tile: 'draw',
    continuation: 'compulsory',
    opening_continuation: 'earned',
    drawn_tile_scope: 'same-turn',
    block_detection: 'immediate',
    branch_use: 'both',
  },
};

const KINDS = { layout: runLayout, settlement: runSettlement };

function answerRun(msg) {
  const seq = String(msg.seq);
  const run = KINDS[msg.kind];
  if (!run) return { type: 'error', seq, message: `not implemented: ${msg.kind}` };
  try {
    return { type: 'result', seq, observations: run(msg.input || {}) };
  } catch (e) {
    if (e instanceof RuleError && e.at !== undefined) {
      return { type: 'rejected', seq, at: e.at, rule: e.rule, message: e.message };
    }
    return { type: 'error', seq, message: String(e && e.message ? e.message : e) };
  }
}

function main() {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  let stopped = false;
  const send = (answer) => process.stdout.write(JSON.stringify(answer) + '\n');

  rl.on('line', (line) => {
    if (stopped || line.trim() === '') return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`horse-race.js: not JSON: ${e.message}\n`);
      send({ type: 'error', seq: '', message: `not JSON: ${e.message}` });
      return;
    }
    if (msg.type === 'hello') {
      send(HELLO);
    } else if (msg.type === 'run') {
      send(answerRun(msg));
    } else if (msg.type === 'stop') {
      stopped = true; // exit 0, no answer
      rl.close();
      process.stdin.destroy(); // stop reading, so that Node can exit
    } else {
      send({ type: 'error', seq: String(msg.seq ?? ''), message: `unknown message type: ${msg.type}` });
    }
  });
  // End of input (one-shot mode, or the runner went away): let Node exit with status 0
  // once stdout has been flushed.
  rl.on('close', () => {
    process.exitCode = 0;
  });
}

if (require.main === module) main();

module.exports = { Layout, runLayout, runSettlement, settlementCredit };
