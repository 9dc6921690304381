// Benchmark, not a test: session creation with the test provider,
// 20 connections for 10 s on SQLite. Budget: p99 ≤ 50 ms, no errors besides the 409s a
// sold-out product is expected to give. Run with `npm run bench:checkout`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const CONNECTIONS = 20;
const DURATION_S = 10;
const P99_BUDGET_MS = 50;

const autocannon = createRequire(join(process.cwd(), 'package.json'))('autocannon') as Autocannon;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/health/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready within 30 s');
}

interface FeedProduct {
  id: number;
  name: string;
  price?: number;
  stock_quantity?: number | null;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['backend/dist/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
      STATIC_DIR: 'off',
      LOG_LEVEL: 'warn',
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      WOOCOMMERCE_URL: '',
      WOOCOMMERCE_KEY: '',
      WOOCOMMERCE_SECRET: '',
      // The load comes from many clients named by X-Forwarded-For, as nginx would name them.
      TRUST_PROXY: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForReady(base, child);
    const products = (await (
      await fetch(`${base}/api/woocommerce/products`)
    ).json()) as FeedProduct[];
    const buyable = products.filter((p) => typeof p.price === 'number' && p.price > 0);
    // Mostly unlimited merch plus one limited event, so the run also covers the capacity
    // path and its 409s once the event sells out.
    const unlimited = buyable.filter(
      (p) => p.stock_quantity === null || p.stock_quantity === undefined,
    );
    const limited = buyable.filter((p) => typeof p.stock_quantity === 'number');
    const pick = [...unlimited.slice(0, 2), ...limited.slice(0, 1)];
    if (pick.length === 0) throw new Error('the demo catalog has no product with a price');
    const bodies = pick.map((p) =>
      JSON.stringify({
        line_items: [
          {
            name: p.name,
            amount: p.price,
            quantity: 1,
            currency: 'eur',
            images: [],
            productId: p.id,
          },
        ],
        success_url: `${base}/success`,
        cancel_url: `${base}/cart`,
        payment_method: 'card',
        coupon: null,
      }),
    );

    let n = 0;
    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: DURATION_S,
      requests: [
        {
          method: 'POST',
          path: '/api/checkout/session',
          headers: { 'content-type': 'application/json' },
          // Many buyers, not one client hammering: each request from its own address
          // (the API trusts X-Forwarded-For from nginx), so the per-IP limit stays out of it.
          setupRequest: (req: Record<string, unknown>) => {
            n += 1;
            return {
              ...req,
              body: bodies[n % bodies.length],
              headers: {
                ...(req.headers as Record<string, string>),
                'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
              },
            };
          },
        },
      ],
    });

    const count = (code: string) => result.statusCodeStats[code]?.count ?? 0;
    const created = count('201');
    const conflicts = count('409');
    const otherNon2xx = result.non2xx - conflicts;
    const errors = result.errors + result.timeouts + otherNon2xx;
    const ok = result.latency.p99 <= P99_BUDGET_MS && errors === 0;
    console.log(
      [
        `checkout session creation (test provider, SQLite, ${CONNECTIONS} connections, ${DURATION_S} s)`,
        `  requests/s   ${result.requests.average.toFixed(0)} (total ${result.requests.total})`,
        `  latency      p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms (budget p99 ≤ ${P99_BUDGET_MS} ms)`,
        `  201 created  ${created}`,
        `  409 sold out ${conflicts} (expected once the limited product is gone)`,
        `  errors       ${errors} (connection ${result.errors}, timeouts ${result.timeouts}, other non-2xx ${otherNon2xx})`,
        `  result       ${ok ? 'within budget' : 'OVER BUDGET'}`,
      ].join('\n'),
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
