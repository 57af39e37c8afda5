// The TypeScript client's SeatSocket driven through a recorded conversation (tests/conversations):
// in Node with `ws` (tests/typescript) and in Chromium with the module the service serves
// (tests/browser). It opens as the recorded hello says and sends each recorded command under
// its id; it reports, in the shape of replay.py's `expected`, what the client answered and
// handed out. `played` resolves when the server has played every line.

export async function walk(SeatSocket, lines, { baseUrl, gameId, WebSocket, played }) {
  const hello = lines[0].send;
  const report = { answers: [], events: [], views: [], ended: null };
  let stoppedWith;
  const stopped = new Promise((resolve) => (stoppedWith = resolve));
  const socket = new SeatSocket({
    baseUrl,
    gameId,
    token: hello.token,
    after: hello.after,
    views: hello.views,
    WebSocket,
    onEvent: (event) => report.events.push(event),
    onView: (game) => report.views.push(game),
    onState: (state, detail) => state === "stopped" && stoppedWith(detail?.code ?? null),
  });
  for (const line of lines) {
    const message = line.send;
    if (message?.type !== "command") continue;
    const options = message.if_match == null ? { id: message.id } : { id: message.id, ifMatch: message.if_match };
    try {
      report.answers.push({ id: message.id, result: await socket.send(message.command, options) });
    } catch (err) {
      if (!err.problem) throw err;
      report.answers.push({ id: message.id, problem: err.problem, retry_after: err.retryAfter });
    }
  }
  await played;
  if ("close" in lines.at(-1)) {
    report.ended = await stopped; // a close for good: the client must stop, not come back
    return report;
  }
  // The server has sent every frame; the client may still be reading the last ones.
  const answers = lines.map((line) => line.receive ?? {});
  const events = answers.flatMap((m) => [...(m.events ?? []), ...(m.result?.events ?? [])]);
  const last = Math.max(hello.after, ...events.map((e) => e.version));
  const views = answers.filter((m) => ["welcome", "view"].includes(m.type) && m.game != null).length;
  while (socket.version < last || report.views.length < views) await new Promise((resolve) => setTimeout(resolve, 10));
  socket.close();
  return report;
}
