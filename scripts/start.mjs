// `npm start`: builds the portal when the build is missing or older than its sources, then runs
// the portal server, which serves it together with the API and the identity provider.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const builtAt = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;

function newestSource(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

if (newestSource('src') > builtAt || newestSource('index.html') > builtAt || newestSource('vite.config.ts') > builtAt) {
  console.log('Building the portal…');
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
