/**
 * Child process for depersonalise-stop.test.ts: the server on the data directory given, as
 * `npm start` runs it (PGlite on its own thread, the scrub on), depersonalises the application
 * given through the API and says "depersonalised" once answered. The parent then stops it at once:
 * SIGKILL, or SIGTERM, on which it closes as server/main.ts does (the app, then the database).
 */
import { openDatabase } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { accessTokenFor, api } from './harness.ts';

const [dataDir, filesDir, guid] = process.argv.slice(2);
if (!dataDir || !filesDir || !guid) throw new Error('usage: depersonalise-stop-child <dataDir> <filesDir> <guid>');

const handle = await openDatabase({ dataDir });
const config = readConfig({ LOG_LEVEL: 'silent', FILES_DIR: filesDir, DATA_DIR: dataDir, DEPERSONALISE_SCRUB: 'on' });
const app = await buildApp({ db: handle.db, config });
await app.ready();
const server = { app, db: handle.db, filesDir, close: async () => app.close() };

process.on('SIGTERM', () => {
  void (async () => {
    await app.close();
    await handle.close();
    process.stdout.write('closed\n');
    process.exit(0);
  })();
});

const admin = await accessTokenFor(server, 'admin@demo.test');
const response = await api(server, 'PUT', `/api/application/depersonalise/${guid}`, { token: admin });
if (response.statusCode !== 200) throw new Error(`depersonalise answered ${response.statusCode}: ${response.body}`);
process.stdout.write('depersonalised\n');
// Stays up (the HTTP server would) until the parent stops it.
setInterval(() => undefined, 60_000);
