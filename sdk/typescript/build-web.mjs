// The web table's copy of the client's helpers: src/extras/{errors,follow,socket}.ts compiled,
// one file each, to plain ES modules (no bundler) in the folder given (`make sdk` writes
// web/client/, which the service serves and git keeps, so serving the table needs no Node).
//
//   node build-web.mjs ../../web/client
//
// Each is transpiled alone, as tsconfig.json's options say (its type-only imports of the
// generated types vanish); `tsc -p tsconfig.json` is what checks their types.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const HERE = dirname(fileURLToPath(import.meta.url));
const MODULES = ["errors", "follow", "socket"];

const out = process.argv[2];
if (!out) {
  console.error("usage: node build-web.mjs OUT_DIR");
  process.exit(2);
}
const { config } = ts.readConfigFile(join(HERE, "tsconfig.json"), ts.sys.readFile);
const compilerOptions = {
  ...ts.convertCompilerOptionsFromJson(config.compilerOptions, HERE).options,
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  rootDir: undefined,
  declaration: false,
  sourceMap: false,
};
mkdirSync(out, { recursive: true });
for (const name of MODULES) {
  const source = `src/extras/${name}.ts`;
  const { outputText, diagnostics } = ts.transpileModule(readFileSync(join(HERE, source), "utf8"), {
    compilerOptions,
    fileName: join(HERE, source),
    reportDiagnostics: true,
  });
  if (diagnostics?.length) {
    console.error(ts.formatDiagnostics(diagnostics, ts.createCompilerHost(compilerOptions)));
    process.exit(1);
  }
  // @ts-nocheck: the web table's check (tests/typescript) reads these as JavaScript, where a
  // definite assignment (`let finish!: …`) no longer says what it did; tsc checks the source.
  const head =
    `// Compiled from sdk/typescript/${source} by \`make sdk\`: edit that file, not this one.\n` +
    "// @ts-nocheck: its types are checked in TypeScript (tsc -p sdk/typescript/tsconfig.json).\n";
  writeFileSync(join(out, `${name}.js`), head + outputText);
}
