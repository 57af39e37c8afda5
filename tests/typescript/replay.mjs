// `node replay.mjs CONVERSATION BASE_URL GAME_ID`: the package's SeatSocket (dist/, with `ws`)
// through a recorded conversation; prints its report as JSON once stdin says the server played
// every line (tests/typescript/test_conversations.py).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

import { walk } from "../conversations/walk.mjs";

const [path, baseUrl, gameId, dist] = process.argv.slice(2);
const { SeatSocket } = await import(pathToFileURL(`${dist}/index.js`).href);
const WebSocket = createRequire(`${dist}/`)("ws");
const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
const played = new Promise((resolve) => process.stdin.once("data", resolve));
const report = await walk(SeatSocket, lines, { baseUrl, gameId, WebSocket, played });
process.stdout.write(JSON.stringify(report));
process.exit(0);
