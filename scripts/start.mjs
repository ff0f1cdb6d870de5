// `npm start`: builds the portal and the server when their builds are missing or older than their
// sources, then runs the server, which serves the portal together with the API and the identity provider.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}
const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const stale = (output, sources) => Math.max(...sources.map(newest)) > builtAt(output);

function run(label, command, args) {
  console.log(label);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// PORTAL_DIST names a portal built elsewhere (server/main.ts serves it): nothing to build here.
if (!process.env.PORTAL_DIST && stale('dist/index.html', ['src', 'index.html', 'vite.config.ts'])) {
  run('Building the portal…', 'npx', ['vite', 'build', '--logLevel', 'warn']);
}
if (stale('dist-server/main.js', ['server', 'src/schemas', 'src/domain'])) {
  run('Building the server…', process.execPath, ['scripts/build-server.mjs']);
}

const server = spawn(process.execPath, ['dist-server/main.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
