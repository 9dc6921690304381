// `node scripts/run-parallel.mjs <script>…`: the npm scripts side by side, each line of their
// output prefixed with its name; exits non-zero when any of them fails, after all ended.
// `npm test` runs the browser suites and the compose test on a real engine this way.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs <npm script>…');
  process.exit(2);
}

const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn('npm', ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        for (const stream of [child.stdout, child.stderr]) {
          createInterface({ input: stream }).on('line', (line) =>
            (stream === child.stdout ? process.stdout : process.stderr).write(
              `[${name}] ${line}\n`,
            ),
          );
        }
        child.on('close', (code, signal) => {
          const seconds = Math.round((Date.now() - started) / 1000);
          resolve({ name, ok: code === 0, how: signal ?? `exit ${code}`, seconds });
        });
      }),
  ),
);

for (const r of results)
  console.log(`${r.ok ? 'passed' : 'FAILED'}: npm run ${r.name} (${r.how}, ${r.seconds} s)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
