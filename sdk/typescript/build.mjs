// dist/ from src/: ES modules and their declarations, as `tsc -p tsconfig.json` compiles them,
// into a dist/ emptied first (a module removed from src/ leaves nothing behind). dist/ is
// committed, so that `npm install <repo>/sdk/typescript` needs no build, and the web table
// serves dist/extras/ at /client/; a test in tests/typescript rebuilds it and compares.
//
//   node build.mjs              (npm run build; make ts-build)
//   node build.mjs --prepack    (npm pack): without TypeScript installed (no `npm ci` yet),
//                               the committed dist/ is packed as it is, and this says so.

import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = join(HERE, "dist");

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
} catch {
  if (process.argv.includes("--prepack") && existsSync(join(DIST, "index.js"))) {
    console.warn("TypeScript is not installed (npm ci installs it): packing the committed dist/.");
    process.exit(0);
  }
  console.error("TypeScript is not installed: run `npm ci` in sdk/typescript first.");
  process.exit(1);
}
rmSync(DIST, { recursive: true, force: true });
const done = spawnSync(process.execPath, [tsc, "-p", join(HERE, "tsconfig.json")], { stdio: "inherit" });
process.exit(done.status ?? 1);
