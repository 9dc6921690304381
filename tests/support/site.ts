import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBackend } from './backend.js';
import { REPO_ROOT } from './net.js';

// Shared helpers of the suites, importable from here.
export { freePort, freePorts, REPO_ROOT, waitForHttp } from './net.js';

export interface RunningSite {
  url: string;
  port: number;
  dataDir: string;
  logs: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the built single-process site (`node backend/dist/main.js`, as `npm start` does)
 * on a free port with its own SQLite database, on the embedded defaults unless `env` says
 * otherwise.
 */
export async function startSite(env: Record<string, string> = {}): Promise<RunningSite> {
  if (!existsSync(join(REPO_ROOT, 'frontend', 'dist', 'index.html'))) {
    throw new Error('The site is not built: run `npm run build` first (npm run test:e2e does).');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'awhh-e2e-'));
  try {
    const backend = await startBackend({
      DATABASE_URL: `sqlite:${join(dataDir, 'awhh.db')}`,
      ...env,
    });
    return {
      url: backend.url,
      port: backend.port,
      dataDir,
      logs: backend.logs,
      stop: async () => {
        await backend.kill('SIGTERM');
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
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
