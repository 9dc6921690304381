import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, REPO_ROOT } from '../support/site.js';

export interface RunningStack {
  url: string;
  dir: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

/**
 * The built frontend when there is one; otherwise a minimal index.html with the same
 * shape (head, module script), enough for the server-side meta injection under test.
 */
export function staticDir(): string {
  const built = join(REPO_ROOT, 'frontend', 'dist');
  if (existsSync(join(built, 'index.html'))) return built;
  const dir = mkdtempSync(join(tmpdir(), 'awhh-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="de"><head><meta charset="UTF-8"><title>After Work Hamburg</title>' +
      '<script type="module" crossorigin src="/assets/index-fixture.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-fixture.js'), 'export {};\n'.repeat(200));
  return dir;
}

/**
 * Runs `node scripts/stack.mjs` (what `npm run stack` runs after the build) on free ports
 * and its own state directory, and stops it with SIGTERM as Ctrl+C would.
 */
export async function startStackCli(env: Record<string, string> = {}): Promise<RunningStack> {
  const [port, productsPort, checkoutPort] = await freePorts(3);
  const dir = mkdtempSync(join(tmpdir(), 'awhh-stack-'));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'scripts', 'stack.mjs')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      STACK_PORT: String(port),
      STACK_PRODUCTS_PORT: String(productsPort),
      STACK_CHECKOUT_PORT: String(checkoutPort),
      STACK_DIR: dir,
      STATIC_DIR: staticDir(),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => (output += String(c)));
  child.stderr!.on('data', (c) => (output += String(c)));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!output.includes(url)) {
    if (child.exitCode !== null) throw new Error(`stack exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`stack did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dir,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exit;
    },
  };
}

export interface LoneNginx {
  url: string;
  /** nginx's prefix directory: conf/, logs/ (access.log, error.log), tmp/. */
  dir: string;
  /** Where nginx sends the products side's requests; nothing listens there unless a test does. */
  productsPort: number;
  stop: () => Promise<void>;
}

/**
 * nginx alone, configured as `npm run stack` configures it, with nothing listening on the
 * upstream ports: both API processes are "down" (every API request gets nginx's own 502).
 * For tests of nginx itself; it needs no build.
 */
export async function startNginxAlone(name: string): Promise<LoneNginx> {
  const dir = mkdtempSync(join(tmpdir(), `awhh-nginx-${name}-`));
  const [port, productsPort, checkoutPort] = await freePorts(3);
  const options = {
    dir,
    port,
    host: '127.0.0.1',
    productsPort,
    checkoutPort,
    staticRoot: staticDir(),
  };
  // scripts/stack.mjs is ESM; a child node renders the same config `npm run stack` uses.
  const script = `import { prepareNginx } from ${JSON.stringify(join(REPO_ROOT, 'scripts', 'stack.mjs'))};
    console.log(JSON.stringify(prepareNginx(${JSON.stringify(options)})));`;
  const rendered = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (rendered.status !== 0) throw new Error(rendered.stderr);
  const args = JSON.parse(rendered.stdout.trim().split('\n').pop()!) as string[];
  const nginx = spawn(process.env.NGINX_BIN ?? '/usr/sbin/nginx', args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  // nginx's own health location: answered without an upstream and never logged.
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/_nginx/health`).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    if (nginx.exitCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, dir, productsPort: productsPort!, stop };
}
