// @kronikas/client: the generated calls and types (src/gen, from openapi/openapi.json), and the
// hand-written helpers beside them (src/extras).
export * from "./gen/index.js";
export { createClient, createConfig } from "./gen/client/index.js";
export { Arena, ARENA_BUSY_S, ARENA_POLL_S } from "./extras/arena.js";
export { connect } from "./extras/connect.js";
export { KronikasError, problemOf, retryAfterOf, unwrap } from "./extras/errors.js";
export { follow, frameParser, } from "./extras/follow.js";
export { copies, OLD_SCHEME, OpeningsChecker, SCHEME, verifyOpening, } from "./extras/proofs.js";
export { pastViews, REPLAY_PAGE, replay, replayViews } from "./extras/replay.js";
export * from "./extras/socket.js";
