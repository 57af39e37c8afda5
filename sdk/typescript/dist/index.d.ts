export * from "./gen/index.js";
export { type Client, type Config, createClient, createConfig } from "./gen/client/index.js";
export { Arena, ARENA_BUSY_S, ARENA_POLL_S, type ArenaOptions, type Seated } from "./extras/arena.js";
export { type ConnectOptions, connect } from "./extras/connect.js";
export { KronikasError, type ProblemCode, problemOf, retryAfterOf, unwrap } from "./extras/errors.js";
export { type Follower, type FollowMode, type FollowOptions, type FollowState, type Frame, follow, frameParser, } from "./extras/follow.js";
export { type CardOpening, copies, OLD_SCHEME, OpeningsChecker, SCHEME, verifyOpening, } from "./extras/proofs.js";
export { pastViews, REPLAY_PAGE, type ReplayOptions, replay, replayViews } from "./extras/replay.js";
export * from "./extras/socket.js";
