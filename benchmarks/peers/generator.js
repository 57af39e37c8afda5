// The peers bench's load generator: one Node process plays `--tables` two-seat tables for
// `--seconds` on one server, over one of three transports, and prints what it measured.
//
//   node generator.js --target bgio|socket|http --port PORT [--tables 16] [--seconds 5]
//       [--rounds 100]
//
// bgio:   boardgame.io's own client (`boardgame.io/client`, its `SocketIO` transport, socket.io's
//         WebSocket transport) on boardgameio/server.js, a client a seat.
// socket: our seat socket (`ws`), a socket a seat, as benchmarks/socket_follow.py.
// http:   our HTTP+SSE (`undici`): a stream a seat, its commands on a kept-alive connection of its
//         own, as benchmarks/follow.py.
//
// Every side plays the same way: a seat moves only when what was pushed to it says it is its
// turn, playing the last card of its hand (on our Cheat tables, accepting when the other seat has
// emptied its hand, as follow.py's seats do); a move counts when the mover has the server's
// answer; the push delay runs from writing a move to the other seat receiving it. The
// connections that carry a table's pushes are new for each table on every side; the connection
// setting tables up (and, over HTTP, each seat's command connection) is kept by the table's slot.
//
// Protocol with the runner (benchmarks/peers.py): once every table is dealt and no move made,
// "ready" on stdout; "go" on stdin starts the play; after `--seconds` no new move is made, and
// once every move in flight has its answer one JSON line of figures goes to stdout; "close" on
// stdin (or its end) closes the connections and exits. Without a runner (stdin a terminal), it
// goes at once.
import { createRequire } from 'node:module';
import readline from 'node:readline';
import { Client as HttpClient } from 'undici';
import WebSocket from 'ws';
import { CardGame } from './boardgameio/game.js';

const require = createRequire(import.meta.url);

function options(argv) {
  const found = { target: 'bgio', port: 8000, tables: 16, seconds: 5, rounds: 100 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!(name in found)) throw new Error(`unknown option ${argv[i]}`);
    found[name] = name === 'target' ? argv[i + 1] : Number(argv[i + 1]);
  }
  return found;
}

// -- the phase: tables played from go() until stop(), as follow.Phase --------------------------

class Phase {
  constructor(tables) {
    this.tables = tables;
    this.going = false;
    this.stopping = false;
    this.pending = [];
    this.inFlight = 0;
    this.moves = 0;
    this.refused = [];
    this.lost = [];
    this.delays = [];
    this.slots = [];
    this.whenDone = null;
  }

  // A move: `write` writes it; held until go(), dropped once stopping or its table is over.
  send(table, write) {
    if (this.stopping || table.over) return;
    if (!this.going) {
      this.pending.push([table, write]);
      return;
    }
    this.inFlight += 1;
    write();
  }

  go() {
    this.going = true;
    const pending = this.pending;
    this.pending = [];
    for (const [table, write] of pending) this.send(table, write);
  }

  answered(table, ok, why) {
    this.inFlight -= 1;
    if (ok) this.moves += 1;
    else {
      this.refused.push(String(why).slice(0, 300));
      table.finish(); // the seats' counts may be wrong now: deal a fresh table
    }
    this.settle();
  }

  unsent() {
    this.inFlight -= 1;
    this.settle();
  }

  broken(table, why) {
    if (!table.over) {
      this.lost.push(String(why).slice(0, 300));
      table.finish();
    }
  }

  settle() {
    if (this.stopping && this.inFlight <= 0 && this.whenDone) this.whenDone();
  }

  // No new move from now; resolves once every move in flight has its answer (or after 10 s,
  // the rest counted as lost).
  stop() {
    this.stopping = true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.inFlight > 0) this.lost.push(`${this.inFlight} move(s) never answered`);
        resolve();
      }, 10_000);
      this.whenDone = () => {
        clearTimeout(timer);
        resolve();
      };
      this.settle();
    });
  }

  // A fresh table in `slot` (after one ended), unless stopping.
  redeal(slot) {
    if (this.stopping) return;
    slot.deal().catch((error) => {
      if (!this.stopping) this.lost.push(`a table could not be dealt: ${error}`);
    });
  }
}

class Table {
  constructor(phase, slot) {
    this.phase = phase;
    this.slot = slot;
    this.over = false;
    this.seats = [];
    this.sentVersion = -1; // the version (bgio: stateID) the move in flight makes
    this.sentBy = -1;
    this.sentAt = 0;
    this.readyCount = 0;
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
  }

  sent(seat, version) {
    this.sentVersion = version;
    this.sentBy = seat;
    this.sentAt = performance.now();
  }

  // A seat at `index` received what made `version`: the push delay, once, at the other seat.
  received(index, version) {
    if (this.sentVersion >= 0 && version >= this.sentVersion && index !== this.sentBy) {
      this.phase.delays.push(performance.now() - this.sentAt);
      this.sentVersion = -1;
    }
  }

  seatReady() {
    this.readyCount += 1;
    if (this.readyCount === this.seats.length) this.resolveReady();
  }

  finish() {
    if (this.over) return;
    this.over = true;
    for (const seat of this.seats) seat.close();
    this.resolveReady();
    this.phase.redeal(this.slot);
  }
}

// -- boardgame.io: its client, a seat a client ---------------------------------------------------

const bgio = {
  load() {
    this.Client = require('boardgame.io/client').Client;
    this.SocketIO = require('boardgame.io/multiplayer').SocketIO;
  },
};

class BgioSeat {
  constructor(table, index, matchID, credentials, port) {
    this.table = table;
    this.index = index;
    this.playerID = String(index);
    this.movedAt = -1; // the stateID this seat last moved at
    this.waiting = -1; // the stateID its move in flight makes
    this.dealt = false;
    this.closed = false;
    this.client = bgio.Client({
      game: CardGame,
      numPlayers: 2,
      matchID,
      playerID: this.playerID,
      credentials,
      debug: false,
      multiplayer: bgio.SocketIO({
        server: `http://127.0.0.1:${port}`,
        // WebSocket from the start, without socket.io's long-polling first: bgio's lighter path.
        socketOpts: { transports: ['websocket'] },
      }),
    });
    // The push delay's two ends where our seats take them, at the transport: the clock starts
    // as the client hands the move to socket.io (after its own reducer), and stops as socket.io
    // hands an `update` to the client (before its store takes it).
    const transport = this.client.transport;
    const sendAction = transport.sendAction.bind(transport);
    transport.sendAction = (state, action) => {
      if (this.waiting >= 0) table.sent(this.index, this.waiting);
      sendAction(state, action);
    };
    const notifyClient = transport.notifyClient.bind(transport);
    transport.notifyClient = (data) => {
      if (data.type === 'update' && !this.closed) table.received(this.index, data.args[1]._stateID);
      notifyClient(data);
    };
    // What the server sends, after the client's store has taken it: the seat reads the store.
    const receive = this.client.receiveTransportData.bind(this.client);
    this.client.receiveTransportData = (data) => {
      receive(data);
      if (data.type === 'update' || data.type === 'patch' || data.type === 'sync') this.pushed();
    };
    this.client.start();
  }

  pushed() {
    if (this.closed) return;
    const table = this.table;
    const state = this.client.store.getState();
    if (!state || !state.ctx) return;
    const stateID = state._stateID;
    if (this.waiting >= 0 && stateID >= this.waiting) {
      this.waiting = -1;
      table.phase.answered(table, true);
    }
    if (!this.dealt) {
      this.dealt = true;
      table.seatReady();
    }
    if (state.ctx.gameover !== undefined) {
      table.finish();
      return;
    }
    if (state.ctx.currentPlayer === this.playerID && stateID > this.movedAt) {
      this.movedAt = stateID;
      const hand = state.G.hands[this.index];
      const card = hand[hand.length - 1];
      table.phase.send(table, () => {
        this.waiting = stateID + 1; // the clock starts in sendAction
        this.client.moves.play(card);
      });
    }
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.waiting >= 0) {
      this.waiting = -1;
      this.table.phase.unsent();
    }
    this.client.stop();
  }
}

class BgioSlot {
  constructor(phase, options) {
    this.phase = phase;
    this.options = options;
    this.setup = new HttpClient(`http://127.0.0.1:${options.port}`);
    this.table = null;
  }

  async post(path, body) {
    const { statusCode, body: answer } = await this.setup.request({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await answer.text();
    if (statusCode !== 200) throw new Error(`${path} answered ${statusCode} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  }

  async deal() {
    const { matchID } = await this.post('/games/cards/create', {
      numPlayers: 2,
      setupData: { rounds: this.options.rounds },
    });
    const credentials = [];
    for (const [playerID, playerName] of [['0', 'A'], ['1', 'B']]) {
      const joined = await this.post(`/games/cards/${matchID}/join`, { playerID, playerName });
      credentials.push(joined.playerCredentials);
    }
    const table = (this.table = new Table(this.phase, this));
    for (const index of [0, 1]) {
      table.seats.push(new BgioSeat(table, index, matchID, credentials[index], this.options.port));
    }
    return table;
  }

  close() {
    if (this.table) this.table.finish();
    this.setup.close();
  }
}

// -- our service: the seats of benchmarks/follow.py ---------------------------------------------

// A Cheat seat as follow.Seat: its hand and the other's count, from the events alone.
class CheatSeat {
  constructor(table, index, token) {
    this.table = table;
    this.index = index;
    this.token = token;
    this.hand = [];
    this.other = 0;
    this.dealt = false;
    this.closed = false;
  }

  // An event, its envelope parsed (`type`, `version`, `data`).
  event(version, kind, data) {
    const table = this.table;
    table.received(this.index, version);
    if (kind === 'cheat.cards_played') {
      if (data.seat !== this.index) this.other -= data.count;
      // The other seat emptied its hand: it may not be played on, only accepted.
      if (data.turn === this.index) this.move(version, this.other === 0);
    } else if (kind === 'cheat.round_dealt') {
      this.hand = [...(data.hands[this.index] || [])];
      this.other = this.hand.length; // two seats: the deal leaves both the same count
      if (!this.dealt) {
        this.dealt = true;
        table.seatReady();
      }
      if (data.turn === this.index) this.move(version, false);
    } else if (kind === 'cheat.pile_taken' || kind === 'cheat.penalty_taken') {
      if (data.seat === this.index) this.hand.push(...(data.cards || []));
      else this.other += data.count;
      if (data.turn === this.index) this.move(version, false);
    } else if (kind === 'cheat.match_ended') {
      table.finish();
    }
  }

  // This turn's command: accept when told to, else play the hand's last card.
  choose(accept) {
    return accept ? { type: 'accept' } : { type: 'play', cards: [this.hand.pop()] };
  }
}

class SocketSeat extends CheatSeat {
  constructor(table, index, token, port, gameID) {
    super(table, index, token);
    this.sequence = 0;
    this.unanswered = 0;
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/v1/games/${gameID}/socket`, {
      perMessageDeflate: false,
    });
    this.ws.on('open', () => {
      this.ws.send(JSON.stringify({ type: 'hello', token, after: 0, views: false }));
    });
    this.ws.on('message', (data) => this.message(data));
    this.ws.on('error', (error) => this.fail(`the socket failed: ${error}`));
    this.ws.on('close', (code) => this.fail(`the service closed the socket: ${code}`));
  }

  message(data) {
    if (this.closed) return;
    const message = JSON.parse(data);
    const phase = this.table.phase;
    if (message.type === 'events') {
      for (const event of message.events) this.event(event.version, event.type, event.data);
    } else if (message.type === 'result') {
      this.unanswered -= 1;
      phase.answered(this.table, true);
      for (const event of message.result.events) this.event(event.version, event.type, event.data);
    } else if (message.type === 'problem') {
      if (message.id == null) {
        this.fail(`the service could not read a message: ${String(data).slice(0, 300)}`);
        return;
      }
      this.unanswered -= 1;
      phase.answered(this.table, false, String(data));
    }
  }

  move(version, accept) {
    const table = this.table;
    const command = this.choose(accept);
    table.phase.send(table, () => {
      this.sequence += 1;
      this.unanswered += 1;
      const message = JSON.stringify({
        type: 'command',
        id: `m${this.sequence}`,
        command,
        if_match: version,
      });
      table.sent(this.index, version + 1);
      this.ws.send(message);
    });
  }

  fail(why) {
    if (!this.closed) {
      this.close();
      this.table.phase.broken(this.table, why);
    }
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    for (; this.unanswered > 0; this.unanswered -= 1) this.table.phase.unsent();
    this.ws.close(1000);
  }
}

class HttpSeat extends CheatSeat {
  constructor(table, index, token, origin, gameID, commands) {
    super(table, index, token);
    this.commands = commands;
    this.path = `/v1/games/${gameID}/commands`;
    this.authorization = `Bearer ${token}`;
    this.buffer = '';
    this.stream = new HttpClient(origin);
    this.stream
      .request({
        method: 'GET',
        path: `/v1/games/${gameID}/stream?after=0`,
        headers: { accept: 'text/event-stream', authorization: this.authorization },
      })
      .then(({ statusCode, body }) => {
        if (statusCode !== 200) {
          body.dump();
          this.fail(`the stream answered ${statusCode}`);
          return;
        }
        this.body = body;
        body.setEncoding('utf8');
        body.on('data', (chunk) => this.data(chunk));
        body.on('end', () => this.fail('the service ended the stream'));
        body.on('error', (error) => this.fail(`the stream was cut: ${error}`));
      })
      .catch((error) => this.fail(`the stream could not be opened: ${error}`));
  }

  // SSE frames as they come: `id:` the version, `event:` the type, `data:` the envelope.
  data(chunk) {
    let buffer = this.buffer + chunk;
    if (buffer.includes('\r')) buffer = buffer.replaceAll('\r\n', '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (this.closed) return;
      let version = -1;
      let kind = '';
      let data = '';
      for (const line of frame.split('\n')) {
        if (line.startsWith('id:')) version = Number(line.slice(3));
        else if (line.startsWith('event:')) kind = line.slice(6).trim();
        else if (line.startsWith('data:')) data = data ? `${data}\n${line.slice(5)}` : line.slice(5);
      }
      if (version >= 0) this.event(version, kind, JSON.parse(data).data);
    }
    this.buffer = buffer;
  }

  move(version, accept) {
    const table = this.table;
    const body = JSON.stringify(this.choose(accept));
    table.phase.send(table, () => {
      table.sent(this.index, version + 1);
      this.commands
        .request({
          method: 'POST',
          path: this.path,
          headers: {
            'content-type': 'application/json',
            authorization: this.authorization,
            'if-match': `"${version}"`,
          },
          body,
        })
        .then(async ({ statusCode, body: answer }) => {
          const text = await answer.text();
          table.phase.answered(table, statusCode === 200, `${statusCode} ${text}`);
        })
        .catch((error) => table.phase.answered(table, false, `the command failed: ${error}`));
    });
  }

  fail(why) {
    if (!this.closed) {
      this.close();
      this.table.phase.broken(this.table, why);
    }
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.stream.destroy().catch(() => {});
  }
}

class OurSlot {
  constructor(phase, options) {
    this.phase = phase;
    this.options = options;
    this.origin = `http://127.0.0.1:${options.port}`;
    this.setup = new HttpClient(this.origin);
    // Over HTTP each seat's commands go on a connection of its own, kept across tables.
    this.commands =
      options.target === 'http' ? [new HttpClient(this.origin), new HttpClient(this.origin)] : [];
    this.table = null;
  }

  async post(path, body, token, expected) {
    const headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const { statusCode, body: answer } = await this.setup.request({
      method: 'POST',
      path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (statusCode !== expected) {
      throw new Error(`${path} answered ${statusCode} ${text.slice(0, 200)}`);
    }
    return JSON.parse(text);
  }

  // A new Cheat table, created, joined by two players and started, its seats following it.
  async deal() {
    const created = await this.post(
      '/v1/games',
      { kind: 'cheat', options: { rounds: this.options.rounds } },
      null,
      201
    );
    const gameID = created.game.id;
    const tokens = [];
    for (const name of ['A', 'B']) {
      const joined = await this.post(`/v1/games/${gameID}/players`, { name }, null, 201);
      tokens.push(joined.token);
    }
    await this.post(`/v1/games/${gameID}/start`, undefined, created.host_token, 200);
    const table = (this.table = new Table(this.phase, this));
    for (const index of [0, 1]) {
      table.seats.push(
        this.options.target === 'socket'
          ? new SocketSeat(table, index, tokens[index], this.options.port, gameID)
          : new HttpSeat(table, index, tokens[index], this.origin, gameID, this.commands[index])
      );
    }
    return table;
  }

  close() {
    if (this.table) {
      this.table.over = true;
      for (const seat of this.table.seats) seat.close();
    }
    this.setup.close();
    for (const commands of this.commands) commands.close();
  }
}

// -- the run -------------------------------------------------------------------------------------

function quantile(sorted, share) {
  return sorted.length ? sorted[Math.min(Math.floor(sorted.length * share), sorted.length - 1)] : 0;
}

async function main() {
  const opts = options(process.argv.slice(2));
  if (!['bgio', 'socket', 'http'].includes(opts.target)) throw new Error(`no target ${opts.target}`);
  if (opts.target === 'bgio') bgio.load();
  const phase = new Phase(opts.tables);
  const Slot = opts.target === 'bgio' ? BgioSlot : OurSlot;
  const lines = process.stdin.isTTY ? null : readline.createInterface({ input: process.stdin });
  const said = [];
  let heard = null;
  lines?.on('line', (line) => (heard ? heard(line.trim()) : said.push(line.trim())));
  lines?.on('close', () => (heard ? heard('close') : said.push('close')));
  const hear = () =>
    said.length ? Promise.resolve(said.shift()) : new Promise((resolve) => (heard = (line) => {
      heard = null;
      resolve(line);
    }));

  try {
    phase.slots = Array.from({ length: opts.tables }, () => new Slot(phase, opts));
    const tables = [];
    for (const slot of phase.slots) tables.push(await slot.deal());
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('the tables were not dealt within 30 s')), 30_000);
    });
    await Promise.race([Promise.all(tables.map((table) => table.ready)), late]);
    clearTimeout(timer);
    if (phase.lost.length || phase.refused.length) {
      throw new Error(`the tables could not be dealt: ${[...phase.lost, ...phase.refused][0]}`);
    }
    process.stdout.write('ready\n');
    if (lines && (await hear()) !== 'go') return;
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    phase.go();
    await new Promise((resolve) => setTimeout(resolve, opts.seconds * 1000));
    await phase.stop();
    const wall = (performance.now() - wall0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const generator = (cpu.user + cpu.system) / 1e6;
    const delays = Float64Array.from(phase.delays).sort();
    const figures = {
      target: opts.target,
      tables: opts.tables,
      moves: phase.moves,
      wall_s: wall,
      moves_per_s: phase.moves / wall,
      push_p50_ms: quantile(delays, 0.5),
      push_p99_ms: quantile(delays, 0.99),
      pushes: delays.length,
      generator_cpu_s: generator,
      generator_cpu_share: generator / wall,
      refused: phase.refused.length,
      lost: phase.lost.length,
      problems: [...phase.refused, ...phase.lost].slice(0, 5),
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    if (lines) await hear();
  } finally {
    phase.stopping = true;
    for (const slot of phase.slots) slot.close();
    lines?.close();
    setTimeout(() => process.exit(0), 200).unref();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
