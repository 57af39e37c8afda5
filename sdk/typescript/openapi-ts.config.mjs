// @hey-api/openapi-ts: src/gen/ from the service's committed OpenAPI document (`npm run generate`,
// or `make sdk` at the root). Nothing under src/gen/ is edited by hand. KRONIKAS_TS_OUT writes it
// elsewhere (the drift test compares a fresh copy with the committed one).
export default {
  input: "../../openapi/openapi.json",
  output: {
    path: process.env.KRONIKAS_TS_OUT || "src/gen",
    // Relative imports end in `.js`, as Node's ES modules (and tsc's NodeNext) require.
    module: { extension: ".js" },
  },
  plugins: ["@hey-api/typescript", "@hey-api/sdk", "@hey-api/client-fetch"],
};
