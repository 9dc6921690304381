import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, REPO_ROOT, waitForHttp } from './net.js';

/**
 * The built backend as its own process, which a fault test may kill with any signal and
 * start again on the same port and database (unlike startSite, which owns its data dir).
 */
export interface BackendProcess {
  url: string;
  port: number;
  pid: number;
  logs: () => string;
  /** False once the process has exited, whatever the reason. */
  alive: () => boolean;
  /** Sends `signal` and waits for the exit. */
  kill: (signal?: NodeJS.Signals) => Promise<void>;
}

export async function startBackend(
  env: Record<string, string>,
  options: { port?: number; timeoutMs?: number; main?: string } = {},
): Promise<BackendProcess> {
  // AWHH_BACKEND_MAIN: run the suites against another build of the backend; `main`: one
  // process of another build (a benchmark's baseline beside the current build).
  const main =
    options.main ?? process.env.AWHH_BACKEND_MAIN ?? join(REPO_ROOT, 'backend', 'dist', 'main.js');
  if (!existsSync(main)) throw new Error('The backend is not built: run `npm run build` first.');
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      STATIC_DIR: join(REPO_ROOT, 'frontend', 'dist'),
      LOG_LEVEL: 'warn',
      WOOCOMMERCE_URL: '',
      WOOCOMMERCE_KEY: '',
      WOOCOMMERCE_SECRET: '',
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      // The suites stand in for nginx on loopback: clientHeaders() names a client per request,
      // below every per-address limit. A test of the default (no proxy) sets TRUST_PROXY: ''.
      TRUST_PROXY: '127.0.0.1',
      // The suites run many backends at once; each would want METRICS_PORT's 9464, so
      // none serves metrics unless a test asks.
      METRICS_PORT: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await Promise.race([
      waitForHttp(`${url}/api/health`, options.timeoutMs ?? 20_000),
      exited.then(() => {
        throw new Error(`The backend exited during start:\n${output}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    port,
    pid: child.pid!,
    logs: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    kill: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
