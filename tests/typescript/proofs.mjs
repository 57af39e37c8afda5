// `node proofs.mjs CASES DIST`: the package's verifier (dist/) on a file of cases written by
// tests/typescript/test_proofs.py; prints, as JSON, `verifyOpening`'s answer for each opening
// case, and for each scenario the answer of each call to an `OpeningsChecker` and its problems.

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [path, dist] = process.argv.slice(2);
const { OpeningsChecker, verifyOpening } = await import(pathToFileURL(`${dist}/index.js`).href);
const { cases, scenarios } = JSON.parse(readFileSync(path, "utf8"));

const verified = await Promise.all(cases.map((c) => verifyOpening(c.opening, c.commitment, c.deck_size)));

async function play(steps) {
  const checker = new OpeningsChecker();
  const answers = [];
  for (const [call, ...args] of steps) {
    const answer = await checker[call](...args);
    answers.push(answer === undefined ? null : answer);
  }
  return { answers, problems: checker.problems };
}

const played = [];
for (const steps of scenarios) played.push(await play(steps));
process.stdout.write(JSON.stringify({ verified, scenarios: played }));
