import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { wooEvent } from '../support/woocommerce-fixtures.js';
import { type BackendProcess, startBackend } from '../fault/support/backend-process.js';
import { startStackCli, type RunningStack } from '../stack/stack-support.js';
import { REPO_ROOT } from '../support/site.js';
import { measureFrontend } from './frontend-size.js';
import {
  type BenchResult,
  type BenchRow,
  median,
  readmeBlock,
  replaceBenchBlock,
  resultsMarkdown,
  resultStamp,
  routeSizeMetric,
  stableNote,
  table,
  verdict,
} from './report.js';
import { measureBackup } from './backup.bench.js';
import {
  checkinRows,
  measureCheckin,
  measureOnlineScans,
  onlineScanRows,
} from './checkin.bench.js';
import { measureMetrics, metricsRows } from './metrics.bench.js';
import { measureOrganizer, organizerRows } from './organizer.bench.js';
import {
  measureReminders,
  REMINDER_PASS_BUDGET_MS,
  REMINDER_PASS_TICKETS,
} from './reminders.bench.js';
import { measureTickets, percentile } from './tickets.bench.js';
import { measureWallet, PKPASS_BUILD_BUDGET_MS, PKPASS_SIZE_BUDGET_KB } from './wallet.bench.js';
import { measureWaitlist, WAITLIST_BUDGET_P95_MS } from './waitlist.bench.js';
import { measureTls, TLS_BUDGET_RATIO } from './tls.bench.js';

/**
 * The performance figures on this machine, over loopback: sizes, Lighthouse, feed and checkout
 * throughput. Every figure is the median of RUNS runs, and every ratio compares two
 * figures taken side by side in the same run. Prints one table, writes
 * bench/results/<timestamp>.json (and the same run as Markdown beside it) and the README
 * table between its markers (report.ts formats both).
 */

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const FEED_CONNECTIONS = 50;
const CHECKOUT_CONNECTIONS = 20;
const COLD_REQUESTS = 200;
const UPSTREAM_DELAY_MS = 800;
const KB = 1024;

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types; the options used here are its documented ones.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

const rows: BenchRow[] = [];
const lighthouseFindings = new Map<string, string[]>();
const notes: string[] = [];
const started = new Date();

function row(
  group: string,
  metric: string,
  runs: number[] | number | null,
  unit: string,
  budget?: BenchRow['budget'],
) {
  const list = Array.isArray(runs) ? runs : runs === null ? [] : [runs];
  rows.push({
    group,
    metric,
    value: list.length ? median(list) : null,
    unit,
    budget,
    runs: Array.isArray(runs) ? runs : undefined,
  });
}

async function load(options: Record<string, unknown>): Promise<AutocannonResult> {
  return autocannon({ duration: LOAD_SECONDS, ...options });
}

let staticDir = '';
let stack: RunningStack | null = null;
const processes: BackendProcess[] = [];
const fakes: FakeWooCommerce[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  await stack?.stop();
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  await Promise.all(fakes.map((f) => f.stop()));
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A copy of the build, so a rebuild during the run cannot change what is measured: the
 * browser's files (dist/) and beside them the server renderer (dist-ssr/, found there by
 * the products process).
 */
function snapshotFrontend(): string {
  const root = mkdtempSync(join(tmpdir(), 'awhh-bench-dist-'));
  const dir = join(root, 'dist');
  cpSync(join(REPO_ROOT, 'frontend', 'dist'), dir, { recursive: true });
  cpSync(join(REPO_ROOT, 'frontend', 'dist-ssr'), join(root, 'dist-ssr'), { recursive: true });
  // nginx workers run as nobody: the copy must be world-readable like the original.
  execFileSync('chmod', ['-R', 'a+rX', root]);
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return dir;
}

/** A browser's user agent: the server treats Lighthouse's and autocannon's like visitors'. */
const VISITOR_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/**
 * The no-JavaScript ceiling of a page: its server HTML without scripts (bundles, module
 * preloads, data blocks), served by nginx as a static file. What the page paints before any
 * script runs can be no faster than this.
 */
async function staticCopy(base: string, path: string, name: string): Promise<string> {
  const html = await (await fetch(base + path, { headers: { 'user-agent': VISITOR_UA } })).text();
  const stripped = html
    .replace(/<script\b[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '');
  writeFileSync(join(staticDir, 'assets', `bench-${name}.html`), stripped, { mode: 0o644 });
  return `/assets/bench-${name}.html`;
}

function measureSizes(): void {
  const sizes = measureFrontend(staticDir);
  // The build's own budget (frontend/vite.config.ts, frontend/README.md).
  row('size', 'first load / JS (gzip)', sizes.firstLoadJs, 'B', { op: '<=', value: 111 * KB });
  row('size', 'first load / CSS (gzip)', sizes.firstLoadCss, 'B', { op: '<=', value: 20 * KB });
  for (const route of sizes.routes) {
    row('size', routeSizeMetric(route.route), route.js + route.css, 'B');
  }
}

async function lighthouse(url: string): Promise<Record<string, number>> {
  const out = join(tmpdir(), `awhh-lh-${process.pid}-${Date.now()}.json`);
  const bin = join(REPO_ROOT, 'node_modules', '.bin', 'lighthouse');
  await promisify(execFile)(
    bin,
    [
      url,
      '--chrome-path=/usr/bin/chromium',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync --no-first-run',
      '--only-categories=performance,accessibility,best-practices,seo',
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
    ],
    { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  ).catch(() => undefined);
  try {
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      categories: Record<string, { score: number | null }>;
      audits: Record<string, { numericValue?: number }>;
      runtimeError?: { code: string };
      environment?: { benchmarkIndex?: number };
    };
    if (report.runtimeError) throw new Error(report.runtimeError.code);
    const score = (k: string) => Math.round((report.categories[k]?.score ?? NaN) * 100);
    // What costs points, so a missed budget names its cause.
    const failing = Object.entries(report.categories).flatMap(([category, c]) =>
      ((c as { auditRefs?: { id: string; weight: number }[] }).auditRefs ?? [])
        .filter(
          (ref) =>
            ref.weight > 0 && (report.audits[ref.id] as { score?: number | null })?.score !== null,
        )
        .filter((ref) => ((report.audits[ref.id] as { score?: number }).score ?? 1) < 0.9)
        .map((ref) => `${category}:${ref.id}`),
    );
    lighthouseFindings.set(url, failing);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
      LCP: report.audits['largest-contentful-paint']?.numericValue ?? NaN,
      SI: report.audits['speed-index']?.numericValue ?? NaN,
      TBT: report.audits['total-blocking-time']?.numericValue ?? NaN,
      CLS: report.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      benchmarkIndex: report.environment?.benchmarkIndex ?? NaN,
    };
  } finally {
    rmSync(out, { force: true });
  }
}

/**
 * RUNS Lighthouse runs of each URL, taken in turns (a, b, a, b, …) so that a page and its
 * ceiling see the machine alike when its speed drifts during the run.
 */
async function lighthouseRuns(...urls: string[]): Promise<Record<string, number>[][]> {
  const runs: Record<string, number>[][] = urls.map(() => []);
  for (let i = 0; i < RUNS; i += 1) {
    for (const [k, url] of urls.entries()) {
      try {
        runs[k]!.push(await lighthouse(url));
      } catch (error) {
        notes.push(`Lighthouse ${url}: run ${i + 1} failed (${String(error)})`);
      }
    }
  }
  for (const url of urls) {
    const findings = lighthouseFindings.get(url);
    if (findings?.length) notes.push(`Lighthouse ${url} loses points on: ${findings.join(', ')}`);
  }
  return runs;
}

/**
 * The machine's floor: a document of one heading and one paragraph, no styles, no images,
 * no script. What Lighthouse charges it is the browser's own work for any navigation here
 * (creating the page's context, the first layout, the first paint) times the simulated CPU
 * slowdown, and no page can score better. Its CPU benchmark index shows how fast this machine
 * was during the run (Lighthouse's 4 × slowdown assumes a desktop of about 1500 to 2000).
 */
async function measureFloor(base: string): Promise<void> {
  const html =
    '<!doctype html><html lang="de"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="description" content="Die kleinste Seite: Maßstab der Messung.">' +
    '<title>After Work Hamburg</title></head>' +
    '<body><main><h1>After Work Hamburg</h1><p>Networking, Musik und Drinks.</p></main></body></html>';
  writeFileSync(join(staticDir, 'assets', 'bench-floor.html'), html, { mode: 0o644 });
  const [runs = []] = await lighthouseRuns(`${base}/assets/bench-floor.html`);
  const pick = (k: string) => runs.map((r) => r[k]!).filter((v) => Number.isFinite(v));
  const group = 'lighthouse floor (minimal page)';
  row(group, 'performance', pick('performance'), 'score');
  row(group, 'TBT', pick('TBT'), 'ms');
  row(group, 'LCP', pick('LCP'), 'ms');
  row(group, 'CPU benchmark index', pick('benchmarkIndex').map(Math.round), '');
}

/**
 * Each page next to its no-JavaScript ceiling (the same server HTML as a static file
 * without scripts), measured in turn in the same run: the ceiling is what the server's
 * HTML alone paints, so the ratio is what the page's JavaScript costs on top of it.
 */
async function measureLighthouse(base: string, via: string): Promise<void> {
  const events = (await (await fetch(`${base}/api/events`)).json()) as {
    slug: string;
    past: boolean;
  }[];
  const merch = (await (await fetch(`${base}/api/merch`)).json()) as { slug: string }[];
  const event = events.find((e) => !e.past) ?? events[0];
  await measureFloor(base);
  const pages: [string, string][] = [
    ['/', '/'],
    ['event page', `/events/${event?.slug}`],
    ['/cart', '/cart'],
    ['merch page', `/merch/${merch[0]?.slug}`],
  ];
  for (const [name, path] of pages) {
    const ceilingPath = await staticCopy(
      base,
      path,
      name.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home',
    );
    const [runs = [], ceiling = []] = await lighthouseRuns(base + path, base + ceilingPath);
    const pick = (list: Record<string, number>[], k: string) =>
      list.map((r) => r[k]!).filter((v) => Number.isFinite(v));
    const group = `lighthouse ${name}`;
    row(group, `performance (${via})`, pick(runs, 'performance'), 'score', {
      op: '>=',
      value: 98,
    });
    row(group, 'accessibility', pick(runs, 'accessibility'), 'score', { op: '>=', value: 100 });
    row(group, 'best practices', pick(runs, 'best-practices'), 'score', { op: '>=', value: 100 });
    row(group, 'SEO', pick(runs, 'seo'), 'score', { op: '>=', value: 100 });
    row(group, 'LCP', pick(runs, 'LCP'), 'ms', { op: '<=', value: 1500 });
    row(group, 'LCP of the HTML without scripts (ceiling)', pick(ceiling, 'LCP'), 'ms');
    /** The page's median and the ceiling's, when both were measured. */
    const medians = (k: string): [number, number] | null => {
      const [page, floor] = [pick(runs, k), pick(ceiling, k)];
      return page.length && floor.length ? [median(page), median(floor)] : null;
    };
    const lcp = medians('LCP');
    row(group, 'LCP / ceiling', lcp && lcp[0] / lcp[1], 'x', { op: '<=', value: 1.2 });
    row(group, 'Speed Index', pick(runs, 'SI'), 'ms', { op: '<=', value: 2000 });
    row(group, 'Speed Index of the ceiling', pick(ceiling, 'SI'), 'ms');
    row(group, 'TBT', pick(runs, 'TBT'), 'ms', { op: '<=', value: 150 });
    // What the browser alone blocks for on this machine (parsing, layout, paint, the
    // navigation itself): the floor under the page's TBT, which varies from run to run.
    row(group, 'TBT of the ceiling', pick(ceiling, 'TBT'), 'ms');
    // The part of the page's TBT that its JavaScript adds (medians apart): comparable between
    // machines where the absolute figure, the ceiling's included, is not.
    const tbt = medians('TBT');
    row(group, 'TBT above the ceiling', tbt && Math.max(0, tbt[0] - tbt[1]), 'ms');
    row(group, 'CLS', pick(runs, 'CLS'), '', { op: '=', value: 0 });
  }
}

/**
 * The server-rendered event page through nginx (its microcache in front) against the same
 * HTML as a static file, side by side; then the rendering process alone (a cookie bypasses
 * the microcache: nginx never answers a request with a cookie from its shared cache).
 */
async function measurePages(base: string): Promise<void> {
  const events = (await (await fetch(`${base}/api/events`)).json()) as {
    slug: string;
    past: boolean;
  }[];
  const event = events.find((e) => !e.past) ?? events[0];
  const pageUrl = `${base}/events/${event?.slug}`;
  const headers = { 'user-agent': VISITOR_UA };
  const html = await (await fetch(pageUrl, { headers })).text();
  writeFileSync(join(staticDir, 'assets', 'bench-event.html'), html, { mode: 0o644 });
  const staticUrl = `${base}/assets/bench-event.html`;
  await load({ url: pageUrl, headers, connections: 10, duration: 2 });
  await load({ url: staticUrl, headers, connections: 10, duration: 2 });
  const ssr = { rps: [] as number[], p99: [] as number[], bad: 0 };
  const stat = { rps: [] as number[], p99: [] as number[] };
  const alone = { rps: [] as number[], p99: [] as number[], bad: 0 };
  const ratio: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const a = await load({ url: pageUrl, headers, connections: FEED_CONNECTIONS });
    const s = await load({ url: staticUrl, headers, connections: FEED_CONNECTIONS });
    const r = await load({
      url: pageUrl,
      headers: { ...headers, cookie: 'bench=uncached' },
      connections: 10,
    });
    ssr.rps.push(a.requests.average);
    ssr.p99.push(a.latency.p99);
    ssr.bad += a.non2xx + a.errors;
    stat.rps.push(s.requests.average);
    stat.p99.push(s.latency.p99);
    alone.rps.push(r.requests.average);
    alone.p99.push(r.latency.p99);
    alone.bad += r.non2xx + r.errors;
    ratio.push(a.requests.average / s.requests.average);
  }
  const size = `${(Buffer.byteLength(html) / KB).toFixed(1)} KB HTML`;
  row('pages', `event page, rendered, via nginx (${FEED_CONNECTIONS} conn)`, ssr.rps, 'req/s');
  row('pages', 'p99', ssr.p99, 'ms', { op: '<=', value: 20 });
  row('pages', `same HTML as a static file via nginx (${size})`, stat.rps, 'req/s');
  row('pages', 'static file p99', stat.p99, 'ms');
  row('pages', 'ratio rendered / static (side by side)', ratio, 'x', { op: '>=', value: 0.5 });
  row('pages', 'rendering alone, microcache bypassed (10 conn)', alone.rps, 'req/s', {
    op: '>=',
    value: 300,
  });
  row('pages', 'rendering alone p99', alone.p99, 'ms');
  if (ssr.bad + alone.bad > 0)
    notes.push(`pages: ${ssr.bad} cached and ${alone.bad} uncached non-2xx/errors`);
}

async function measureWarmFeed(base: string): Promise<void> {
  const feed = await (await fetch(`${base}/api/woocommerce/products`)).text();
  writeFileSync(join(staticDir, 'assets', 'bench-feed.json'), feed, { mode: 0o644 });
  const staticUrl = `${base}/assets/bench-feed.json`;
  const check = await fetch(staticUrl);
  if (!check.ok || (await check.text()) !== feed)
    throw new Error('nginx does not serve the static copy');
  const feedUrl = `${base}/api/woocommerce/products`;
  // Warm-up: caches, JIT, keep-alive pools.
  await load({ url: feedUrl, connections: 10, duration: 2 });
  await load({ url: staticUrl, connections: 10, duration: 2 });
  const api = { rps: [] as number[], p99: [] as number[], bad: 0 };
  const stat = { rps: [] as number[], p99: [] as number[], bad: 0 };
  const ratio: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const a = await load({ url: feedUrl, connections: FEED_CONNECTIONS });
    const s = await load({ url: staticUrl, connections: FEED_CONNECTIONS });
    api.rps.push(a.requests.average);
    api.p99.push(a.latency.p99);
    api.bad += a.non2xx + a.errors;
    stat.rps.push(s.requests.average);
    stat.p99.push(s.latency.p99);
    stat.bad += s.non2xx + s.errors;
    ratio.push(a.requests.average / s.requests.average);
  }
  const size = `${(Buffer.byteLength(feed) / KB).toFixed(1)} KB JSON`;
  row(
    'warm feed',
    `GET /api/woocommerce/products via nginx (${FEED_CONNECTIONS} conn)`,
    api.rps,
    'req/s',
  );
  row('warm feed', 'p99', api.p99, 'ms', { op: '<=', value: 10 });
  row('warm feed', `same JSON as a static file via nginx (${size})`, stat.rps, 'req/s');
  row('warm feed', 'static file p99', stat.p99, 'ms');
  row('warm feed', 'ratio API / static (side by side)', ratio, 'x', { op: '>=', value: 0.5 });
  if (api.bad + stat.bad > 0)
    notes.push(`warm feed: ${api.bad} API and ${stat.bad} static non-2xx/errors`);
}

async function measureColdFeed(): Promise<void> {
  const calls: number[] = [];
  const p99: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const woo = new FakeWooCommerce({
      products: Array.from({ length: 12 }, (_, n) => wooEvent(1000 + n, { startsInDays: n + 1 })),
    });
    woo.latencyMs = UPSTREAM_DELAY_MS;
    await woo.start();
    fakes.push(woo);
    const dataDir = mkdtempSync(join(tmpdir(), 'awhh-bench-cold-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const proc = await startBackend({
      ...woo.env,
      MODULES: 'products',
      DATABASE_URL: `sqlite:${join(dataDir, 'awhh.db')}`,
      STATIC_DIR: '',
      LOG_LEVEL: 'error',
    });
    processes.push(proc);
    const latencies = await Promise.all(
      Array.from({ length: COLD_REQUESTS }, async () => {
        const t = performance.now();
        const res = await fetch(`${proc.url}/api/woocommerce/products`);
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`cold feed answered ${res.status}`);
        return performance.now() - t;
      }),
    );
    // Including the prefetch at start-up, which the cold requests may join.
    calls.push(woo.calls('/wp-json/wc/v3/products'));
    latencies.sort((a, b) => a - b);
    p99.push(latencies[Math.ceil(latencies.length * 0.99) - 1]!);
    await proc.kill('SIGTERM');
    await woo.stop();
  }
  row(
    'cold feed',
    `upstream calls: process start + ${COLD_REQUESTS} concurrent cold requests`,
    calls,
    '',
    {
      op: '=',
      value: 1,
    },
  );
  row('cold feed', `p99 (upstream answers in ${UPSTREAM_DELAY_MS} ms)`, p99, 'ms');
}

async function createPostgresDatabase(): Promise<string | null> {
  const name = `awhh_bench_${process.pid}_${Date.now()}`;
  try {
    await promisify(execFile)('psql', [
      '-h',
      '127.0.0.1',
      '-U',
      'postgres',
      '-d',
      'test',
      '-c',
      `CREATE DATABASE ${name}`,
    ]);
  } catch (error) {
    notes.push(`PostgreSQL on 127.0.0.1:5432 not usable: ${String(error).slice(0, 200)}`);
    return null;
  }
  cleanups.push(async () => {
    await promisify(execFile)('psql', [
      '-h',
      '127.0.0.1',
      '-U',
      'postgres',
      '-d',
      'test',
      '-c',
      `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
    ]).catch(() => undefined);
  });
  return `postgres://postgres@127.0.0.1:5432/${name}`;
}

async function measureCheckout(): Promise<void> {
  // Unlimited stock (WooCommerce without stock management), so every request is a 201.
  const woo = new FakeWooCommerce({
    products: [wooEvent(1101, { price: '24.90', manage_stock: false, stock_quantity: null })],
  });
  await woo.start();
  fakes.push(woo);
  const dataDir = mkdtempSync(join(tmpdir(), 'awhh-bench-checkout-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const databases: [string, string | null][] = [
    ['SQLite', `sqlite:${join(dataDir, 'awhh.db')}`],
    ['PostgreSQL', await createPostgresDatabase()],
  ];
  // BENCH_BASELINE_MAIN: another build's backend/dist/main.js (an earlier commit, see the
  // README), measured in the same run, runs interleaved, so the two figures compare.
  const baselineMain = process.env.BENCH_BASELINE_MAIN;
  const builds: [string, string | undefined][] = [['', undefined]];
  let baselinePg: string | null | undefined;
  if (baselineMain) builds.push([' (baseline)', baselineMain]);
  for (const [name, url] of databases) {
    if (!url) {
      row('checkout', `POST /api/checkout/session, ${name}`, null, 'req/s');
      continue;
    }
    const measured = new Map<string, { rps: number[]; p99: number[] }>();
    for (let i = 0; i < RUNS; i += 1) {
      for (const [label, main] of builds) {
        // A fresh SQLite file per build and run; on PostgreSQL one database per build
        // (their migrations differ), so neither measures the other's rows.
        const databaseUrl = url.startsWith('sqlite:')
          ? `sqlite:${join(dataDir, `awhh-${i}${label ? '-b' : ''}.db`)}`
          : label
            ? (baselinePg ??= await createPostgresDatabase())
            : url;
        if (!databaseUrl) continue;
        const r = await loadCheckout(woo, databaseUrl, main, i === 0);
        const m = measured.get(label) ?? { rps: [], p99: [] };
        m.rps.push(r.rps);
        m.p99.push(r.p99);
        measured.set(label, m);
        if (r.bad > 0) notes.push(`checkout ${name}${label}: ${r.bad} non-2xx answers or errors`);
      }
    }
    for (const [label] of builds) {
      const m = measured.get(label);
      if (!m) continue;
      row(
        'checkout',
        `POST /api/checkout/session, test provider, ${name}${label} (${CHECKOUT_CONNECTIONS} conn)`,
        m.rps,
        'req/s',
      );
      row(
        'checkout',
        `p99, ${name}${label}`,
        m.p99,
        'ms',
        label ? undefined : { op: '<=', value: 50 },
      );
    }
    const base = measured.get(' (baseline)');
    if (base) {
      const now = median(measured.get('')!.p99);
      const before = median(base.p99);
      row('checkout', `p99 ratio now / baseline, ${name} (side by side)`, [now / before], 'x', {
        op: '<=',
        value: 1.1,
      });
    }
  }
}

/** One build's checkout on one database: warm-up on the first run, then one measured load. */
async function loadCheckout(
  woo: FakeWooCommerce,
  databaseUrl: string,
  main: string | undefined,
  warmUp: boolean,
): Promise<{ rps: number; p99: number; bad: number }> {
  const proc = await startBackend(
    {
      ...woo.env,
      MODULES: 'checkout',
      DATABASE_URL: databaseUrl,
      STATIC_DIR: '',
      LOG_LEVEL: 'error',
    },
    { main },
  );
  processes.push(proc);
  try {
    const body = JSON.stringify({
      line_items: [
        {
          productId: 1101,
          name: 'Testevent 1101',
          amount: 24.9,
          quantity: 1,
          currency: 'eur',
          images: [],
        },
      ],
      success_url: `${proc.url}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${proc.url}/cart`,
      payment_method: 'card',
    });
    let client = 0;
    const request = {
      method: 'POST',
      path: '/api/checkout/session',
      headers: { 'content-type': 'application/json' },
      body,
      // Each request as its own buyer: the per-IP limit (20 a minute) is not what is measured.
      setupRequest: (req: { headers: Record<string, string> }) => {
        client += 1;
        req.headers = {
          ...req.headers,
          'x-forwarded-for': `10.9.${(client >> 8) & 255}.${client & 255}`,
        };
        return req;
      },
    };
    await load({ url: proc.url, connections: 5, duration: warmUp ? 2 : 1, requests: [request] });
    const r = await load({ url: proc.url, connections: CHECKOUT_CONNECTIONS, requests: [request] });
    return { rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts };
  } finally {
    await proc.kill('SIGTERM');
  }
}

/**
 * The door's budgets (ticket list, sync and verdict, checkin.bench.ts) and the waiting
 * list's (a freed place to the offer mail at the SMTP server, waitlist.bench.ts).
 */
async function measureDoorAndWaitlist(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-bench-door-'));
  try {
    for (const r of checkinRows(await measureCheckin(dir))) {
      row(r.group, r.metric, r.runs, r.unit, r.budget);
    }
    const { freedToOfferMail } = await measureWaitlist(dir);
    row(
      'waitlist',
      `freed place → offer mail at SMTP, median of ${freedToOfferMail.length}`,
      [median(freedToOfferMail)],
      'ms',
    );
    row(
      'waitlist',
      `freed place → offer mail at SMTP, p95 of ${freedToOfferMail.length}`,
      [percentile(freedToOfferMail, 95)],
      'ms',
      { op: '<=', value: WAITLIST_BUDGET_P95_MS },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The door online on the stack (checkin.bench.ts): scan → the server's verdict via nginx. */
async function measureDoorOnline(): Promise<void> {
  for (const r of onlineScanRows(await measureOnlineScans())) {
    row(r.group, r.metric, r.runs, r.unit, r.budget);
  }
}

/** The ticket budgets (tickets.bench.ts): paid → mail at the SMTP server, one ticket's PDF. */
async function measureTicketMail(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-bench-mail-'));
  try {
    const { paidToMail, pdf } = await measureTickets(dir);
    row(
      'tickets',
      `paid → ticket mail at SMTP, 4 tickets, median of ${paidToMail.length}`,
      [median(paidToMail)],
      'ms',
    );
    row(
      'tickets',
      `paid → ticket mail at SMTP, 4 tickets, p95 of ${paidToMail.length}`,
      [percentile(paidToMail, 95)],
      'ms',
      { op: '<=', value: 2000 },
    );
    row('tickets', `one ticket PDF rendered, median of ${pdf.length}`, [median(pdf)], 'ms', {
      op: '<=',
      value: 150,
    });
    row('tickets', `one ticket PDF rendered, p95 of ${pdf.length}`, [percentile(pdf, 95)], 'ms');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The wallet budget (wallet.bench.ts): one ticket's signed .pkpass, its time and size. */
async function measureWalletPass(): Promise<void> {
  const { buildMs, bytes } = await measureWallet();
  row(
    'wallet',
    `one .pkpass built and signed, median of ${buildMs.length}`,
    [median(buildMs)],
    'ms',
    {
      op: '<=',
      value: PKPASS_BUILD_BUDGET_MS,
    },
  );
  row(
    'wallet',
    `one .pkpass built and signed, p95 of ${buildMs.length}`,
    [percentile(buildMs, 95)],
    'ms',
  );
  row('wallet', 'one .pkpass, size', [bytes], 'B', {
    op: '<=',
    value: PKPASS_SIZE_BUDGET_KB * 1024,
  });
}

/**
 * The reminders' budget (reminders.bench.ts): the pass over 2,000 tickets, beside the same
 * pass with nothing new to enqueue and the read of those tickets alone.
 */
async function measureReminderPass(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-bench-reminders-'));
  try {
    const { pass, again, read, jobs } = await measureReminders(dir);
    const tickets = REMINDER_PASS_TICKETS.toLocaleString('en');
    row(
      'reminders',
      `reminder pass over ${tickets} tickets (${jobs} jobs enqueued), median of ${pass.length}`,
      [median(pass)],
      'ms',
      { op: '<=', value: REMINDER_PASS_BUDGET_MS },
    );
    row(
      'reminders',
      `the same pass again, every job enqueued already, median of ${again.length}`,
      [median(again)],
      'ms',
    );
    row(
      'reminders',
      `reference: reading the ${tickets} tickets alone, median of ${read.length}`,
      [median(read)],
      'ms',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * HTTPS beside plain HTTP through the same nginx (tls.bench.ts), alternating. The budget is
 * the first page a visitor opens in Chromium (new context each time: a new connection and
 * handshake, no cache), HTTPS over HTTP in the same run. The single GET / on a new
 * connection beside it is the handshake's CPU cost on loopback, for information.
 */
async function measureHttps(): Promise<void> {
  const tls = await measureTls(staticDir, RUNS);
  const n = tls.browserSamples;
  const over = (scheme: 'http' | 'https') => tls.protocols[scheme].join(', ') || 'n/a';
  for (const page of tls.pages) {
    const group = `tls first page ${page.name}`;
    row(
      group,
      `Chromium over HTTP (${over('http')}): start → loadEventEnd, median of ${n}`,
      page.http.load,
      'ms',
    );
    row(
      group,
      `Chromium over HTTPS (${over('https')}, ECDSA P-256): start → loadEventEnd, median of ${n}`,
      page.https.load,
      'ms',
    );
    row(group, 'ratio HTTPS / HTTP (same nginx, alternating)', page.ratio, 'x', {
      op: '<=',
      value: TLS_BUDGET_RATIO,
    });
    row(group, 'HTTPS − HTTP', page.extra, 'ms');
    // Navigation Timing shows the part of the connect the navigation waited for: none when
    // Chromium's preconnect at the navigation's start had finished it first.
    row(group, 'connectEnd − connectStart over HTTP (TCP, waited for)', page.http.connect, 'ms');
    row(
      group,
      'connectEnd − connectStart over HTTPS (TCP and handshake, waited for)',
      page.https.connect,
      'ms',
    );
    row(group, 'responseStart over HTTP', page.http.firstByte, 'ms');
    row(group, 'responseStart over HTTPS', page.https.firstByte, 'ms');
  }
  if (tls.browserBad > 0) {
    notes.push(
      `tls: ${tls.browserBad} navigations not 200 or without a new connection of their own`,
    );
  }
  if (tls.elsewhere.length) {
    notes.push(`tls: pages loaded resources from other origins: ${tls.elsewhere.join(', ')}`);
  }
  const group = 'tls handshake CPU (loopback)';
  row(
    group,
    `GET / on a new connection over HTTP (Node), median of ${tls.samples}`,
    tls.http,
    'ms',
  );
  row(
    group,
    `GET / on a new connection over HTTPS (TLS 1.3, ECDSA P-256), median of ${tls.samples}`,
    tls.https,
    'ms',
  );
  row(group, 'ratio HTTPS / HTTP (informational: CPU time, no network)', tls.ratio, 'x');
  row(group, 'HTTPS − HTTP (the handshake and encryption)', tls.extra, 'ms');
  row(
    group,
    `the same over HTTPS, TLS session resumed (returning visitor), median of ${tls.samples}`,
    tls.resumed,
    'ms',
  );
  row(group, 'ratio resumed HTTPS / HTTP', tls.resumedRatio, 'x');
  if (tls.bad > 0) notes.push(`tls: ${tls.bad} answers other than 200`);
}

/** The organizer's budgets (organizer.bench.ts): dashboard, guest-list CSV and search, name badges. */
async function measureOrganizerArea(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-bench-organizer-'));
  try {
    for (const r of organizerRows(await measureOrganizer(dir))) {
      row(r.group, r.metric, r.runs, r.unit, r.budget);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The backup budgets (backup.bench.ts): npm run backup and npm run restore of a store with
 * 10,000 orders and 20,000 tickets, on SQLite and PostgreSQL, beside the bare tools.
 */
async function measureBackupRestore(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-bench-backup-'));
  try {
    for (const r of await measureBackup(dir, RUNS, createPostgresDatabase, notes)) {
      row(r.group, r.metric, r.runs, r.unit, r.budget);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The metrics budget (metrics.bench.ts): a scrape of /metrics on a store with 2,000 tickets. */
async function measureMetricsScrape(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-bench-metrics-'));
  try {
    for (const r of metricsRows(await measureMetrics(dir))) {
      row(r.group, r.metric, r.runs, r.unit, r.budget);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function result(): BenchResult {
  const cpu = cpus();
  return {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: { cpus: cpu.length, model: cpu[0]?.model ?? '', node: process.version },
    runs: RUNS,
    loadSeconds: LOAD_SECONDS,
    rows: rows.map((r) => ({ ...r, verdict: verdict(r) || undefined })),
    notes,
    parts: PARTS,
  };
}

/** The run's record: its JSON, and the same run as Markdown beside it. */
function writeResults(run: BenchResult): string {
  const dir = join(REPO_ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${resultStamp(run.startedAt)}.json`);
  writeFileSync(file, JSON.stringify(run, null, 2) + '\n');
  writeFileSync(file.replace(/\.json$/, '.md'), resultsMarkdown(run));
  return file;
}

function updateReadme(run: BenchResult): void {
  const path = join(REPO_ROOT, 'README.md');
  writeFileSync(path, replaceBenchBlock(readFileSync(path, 'utf8'), readmeBlock(run)));
}

/**
 * BENCH_PARTS (comma-separated: sizes, lighthouse, pages, feed, checkout, tickets, door,
 * door-online, organizer, wallet, reminders, backup, tls, metrics)
 * measures only those parts, e.g. while tuning one budget; the README table is written
 * only by a full run.
 */
const PARTS = process.env.BENCH_PARTS?.split(',').map((p) => p.trim());
const part = (name: string) => !PARTS || PARTS.includes(name);

describe('benchmark', () => {
  it('measures sizes, Lighthouse, feed and checkout against the budgets', async () => {
    staticDir = snapshotFrontend();
    if (part('sizes')) measureSizes();

    if (part('lighthouse') || part('pages') || part('feed')) {
      stack = await startStackCli({ STATIC_DIR: staticDir });
      if (part('lighthouse')) await measureLighthouse(stack.url, 'nginx');
      if (part('pages')) await measurePages(stack.url);
      if (part('feed')) await measureWarmFeed(stack.url);
      await stack.stop();
      stack = null;
    }

    if (part('feed')) await measureColdFeed();
    if (part('checkout')) await measureCheckout();
    if (part('tickets')) await measureTicketMail();
    if (part('door')) await measureDoorAndWaitlist();
    if (part('door-online')) await measureDoorOnline();
    if (part('organizer')) await measureOrganizerArea();
    if (part('wallet')) await measureWalletPass();
    if (part('reminders')) await measureReminderPass();
    if (part('backup')) await measureBackupRestore();
    if (part('tls')) await measureHttps();
    if (part('metrics')) await measureMetricsScrape();

    const run = result();
    const file = writeResults(run);
    if (!PARTS) updateReadme(run);
    const text = `${table(run.rows)}${notes.length ? `\n\nNotes:\n${notes.map((n) => `- ${stableNote(n)}`).join('\n')}` : ''}`;
    process.stdout.write(`\n${text}\n\nwritten to ${file} and beside it as Markdown\n`);
  });
});
