import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');

export interface RunningSite {
  url: string;
  port: number;
  dataDir: string;
  logs: () => string;
  stop: () => Promise<void>;
}

/** A free TCP port on loopback, chosen by the OS. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = new Error(`${url} answered ${res.status}`);
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up: ${String(last)}`);
}

/**
 * Starts the built single-process site (`node backend/dist/main.js`, as `npm start` does)
 * on a free port with its own SQLite database, on the embedded defaults unless `env` says
 * otherwise.
 */
export async function startSite(env: Record<string, string> = {}): Promise<RunningSite> {
  const main = join(REPO_ROOT, 'backend', 'dist', 'main.js');
  const index = join(REPO_ROOT, 'frontend', 'dist', 'index.html');
  if (!existsSync(main) || !existsSync(index)) {
    throw new Error('The site is not built: run `npm run build` first (npm run test:e2e does).');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'awhh-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATABASE_URL: `sqlite:${join(dataDir, 'awhh.db')}`,
      STATIC_DIR: join(REPO_ROOT, 'frontend', 'dist'),
      LOG_LEVEL: 'warn',
      WOOCOMMERCE_URL: '',
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await Promise.race([
      waitForHttp(`${url}/api/health`),
      exited.then(() => {
        throw new Error(`The site exited during start:\n${output}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port,
    dataDir,
    logs: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The site under test for the browser journeys. With E2E_TARGET=stack (what `npm test`
 * uses) it is the production topology: nginx in front of separate products and checkout
 * processes (`npm run stack`); otherwise the single process of `npm start`.
 */
export async function startTarget(env: Record<string, string> = {}): Promise<RunningSite> {
  if (process.env.E2E_TARGET !== 'stack') return startSite(env);
  const { startStackCli } = await import('../stack/stack-support.js');
  const stack = await startStackCli(env);
  return {
    url: stack.url,
    port: Number(new URL(stack.url).port),
    dataDir: stack.dir,
    logs: stack.output,
    stop: async () => {
      await stack.stop();
      rmSync(stack.dir, { recursive: true, force: true });
    },
  };
}
