// boardgame.io's own server for the peers bench: `Server` as its docs show it for production
// (in memory, the lobby API and socket.io on one port), run with NODE_ENV=production.
//
//   NODE_ENV=production node boardgameio/server.js PORT
import { createRequire } from 'node:module';
import { CardGame } from './game.js';

const { Server, Origins } = createRequire(import.meta.url)('boardgame.io/server');
const port = Number(process.argv[2] ?? 8000);
const server = Server({ games: [CardGame], origins: [Origins.LOCALHOST] });
// Port 0: the system picks a free one, said on the ready line (no port chosen ahead can be taken
// by another program before the server listens on it).
const { appServer } = await server.run(port);
console.log(`ready ${appServer.address().port} pid ${process.pid}`);
