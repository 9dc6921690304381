/**
 * Products API benchmark (not a test): warm feed throughput and latency with
 * autocannon, and how many upstream calls 200 concurrent cold requests cause against a
 * WooCommerce that needs 800 ms per answer. Runs the built server (backend/dist/main.js)
 * as its own process, like `npm start`.
 *
 *   npm run bench:products
 *
 * Budget: warm feed p99 ≤ 10 ms at 50 connections; exactly 1 upstream call per resource.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { manyProducts } from '../support/woocommerce-fixtures.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

// npm runs scripts from the repository root.
const root = process.cwd();
if (!existsSync(resolve(root, 'backend/dist/main.js'))) {
  throw new Error('backend/dist/main.js not found: run npm run build -w backend first');
}

const WARM_CONNECTIONS = 50;
const WARM_SECONDS = 10;
const COLD_REQUESTS = 200;
const UPSTREAM_LATENCY_MS = 800;
const P99_BUDGET_MS = 10;

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

async function startBackend(
  env: Record<string, string>,
): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [resolve(root, 'backend/dist/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      MODULES: 'products',
      STATIC_DIR: 'off',
      // Access logs at 20k req/s would measure the terminal, not the API.
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`backend exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return { base, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill();
  throw new Error('backend did not start within 5 s');
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function warmFeed(): Promise<boolean> {
  const { base, child } = await startBackend({});
  try {
    const url = `${base}/api/woocommerce/products`;
    const first = await fetch(url);
    const bytes = (await first.text()).length;
    // A short warm-up lets V8 optimise the hot path before measuring.
    await autocannon({ url, connections: 10, duration: 2 });
    const result = await autocannon({ url, connections: WARM_CONNECTIONS, duration: WARM_SECONDS });
    const ok = result.latency.p99 <= P99_BUDGET_MS && result.non2xx === 0 && result.errors === 0;
    console.log(`\nWarm feed: GET /api/woocommerce/products (demo catalog, ${bytes} bytes)`);
    console.log(`  ${WARM_CONNECTIONS} connections, ${WARM_SECONDS} s`);
    console.log(`  requests/s   ${Math.round(result.requests.average)}`);
    console.log(`  latency p50  ${result.latency.p50} ms`);
    console.log(
      `  latency p99  ${result.latency.p99} ms   (budget ≤ ${P99_BUDGET_MS} ms: ${ok ? 'ok' : 'MISSED'})`,
    );
    console.log(`  non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`);
    return ok;
  } finally {
    await stop(child);
  }
}

async function coldBurst(): Promise<boolean> {
  const fake = await FakeWooCommerce.start({
    products: manyProducts(120),
    latencyMs: UPSTREAM_LATENCY_MS,
  });
  const { base, child } = await startBackend({
    WOOCOMMERCE_URL: fake.url,
    WOOCOMMERCE_KEY: fake.key,
    WOOCOMMERCE_SECRET: fake.secret,
  });
  try {
    const requests: [string, RequestInit?][] = [
      ['/api/woocommerce/products'],
      ['/api/events'],
      ['/api/events/afterwork-1'],
      ['/api/blog'],
      ['/api/blog/tipps'],
      [
        '/api/coupons/validate',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"code":"AFTERWORK10"}',
        },
      ],
    ];
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: COLD_REQUESTS }, async (_, i) => {
        const [path, init] = requests[i % requests.length]!;
        const res = await fetch(base + path, init);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const elapsed = Date.now() - started;
    // One listing of a resource is one request for page 1 (plus one per further page).
    const listings = (path: string) =>
      fake.requests.filter((r) => r.path === path && (r.query.get('page') ?? '1') === '1').length;
    const upstream = {
      'products (wc/v3/products)': listings('/wp-json/wc/v3/products'),
      'posts (wp/v2/posts)': listings('/wp-json/wp/v2/posts'),
      'coupon AFTERWORK10 (wc/v3/coupons)': listings('/wp-json/wc/v3/coupons'),
    };
    const pages = fake.calls('/wp-json/wc/v3/products');
    const non200 = statuses.filter((s) => s !== 200).length;
    const ok = Object.values(upstream).every((n) => n === 1) && non200 === 0;
    console.log(
      `\nCold burst: ${COLD_REQUESTS} concurrent requests, upstream answers in ${UPSTREAM_LATENCY_MS} ms`,
    );
    console.log(`  mix: ${requests.map(([p]) => p).join(', ')}`);
    console.log(`  all answered in ${elapsed} ms, non-200: ${non200}`);
    for (const [resource, calls] of Object.entries(upstream)) {
      console.log(
        `  upstream calls for ${resource.padEnd(36)} ${calls}   (budget 1: ${calls === 1 ? 'ok' : 'MISSED'})`,
      );
    }
    console.log(
      `  (the product listing spans ${pages} pages of 100: ${pages} page requests in total)`,
    );
    return ok;
  } finally {
    await stop(child);
    await fake.stop();
  }
}

const warmOk = await warmFeed();
const coldOk = await coldBurst();
console.log(`\n${warmOk && coldOk ? 'Within budget.' : 'Budget missed.'}`);
process.exitCode = warmOk && coldOk ? 0 : 1;
