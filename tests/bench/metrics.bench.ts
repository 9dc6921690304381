import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { freePort, type RunningSite, startSite } from '../support/site.js';
import { percentile } from './tickets.bench.js';

/**
 * The metrics budget (docs/operations.md "Betrieb: Metriken", docs/decisions/0021): a Prometheus scrape
 * of `/metrics` reads the jobs queue and the checkout side's figures from the store, and
 * answers within 20 ms on a store with 2,000 tickets. One site process (the built backend,
 * SQLite) serving metrics on a port of its own; the reference is the same process scraped
 * on its empty store first, in the same run. The store is written directly: 1,400 orders in
 * the order machine's states, the paid and refunded ones with two tickets each (2,000),
 * check-ins, waiting-list entries and the finished ticket-mail jobs a season leaves.
 */

export const METRICS_BUDGET_MS = 20;

const ORDERS = Number(process.env.BENCH_METRICS_ORDERS ?? 1_400);
const TICKETS_PER_ORDER = 2;
const SCRAPES = 40;
const WARM_UP = 5;
const STATES = ['handedOff', 'handedOff', 'handedOff', 'paid', 'refunded', 'expired', 'open'];

export interface MetricsFigures {
  tickets: number;
  /** ms per scrape of the empty store (reference) and of the seeded one. */
  emptyMs: number[];
  seededMs: number[];
}

export interface MetricsRow {
  group: string;
  metric: string;
  runs: number[];
  unit: string;
  budget?: { op: '<=' | '>='; value: number };
}

function seed(file: string): number {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    const now = Date.now();
    const order = db.prepare(
      `insert into orders (id, session_id, provider, status, email, subtotal, discount, total,
         currency, payment_method, success_url, cancel_url, created_at, expires_at, paid_at, updated_at)
       values (?, ?, 'test', ?, ?, 5000, 0, 5000, 'eur', 'card', 'http://bench/ok', 'http://bench/cart', ?, ?, ?, ?)`,
    );
    const ticket = db.prepare(
      `insert into tickets (id, order_id, line_position, seat, seats, event_id, variation_id,
         event_name, event_slug, starts_at, venue, tier, holder, status, issued_at, revoked_at)
       values (?, ?, 0, ?, ?, ?, null, 'Afterwork im Hafen', null, null, 'Hafenklang', 'Regulär', ?, ?, ?, ?)`,
    );
    const checkin = db.prepare(
      `insert into checkins (ticket_id, scan_id, scanned_at, device, received_at) values (?, ?, ?, 'Tür 1', ?)`,
    );
    const entry = db.prepare(
      `insert into waitlist_entries (id, product_id, variation_id, product_key, quantity, email, status,
         line_name, event_slug, starts_at, confirm_token, unsubscribe_token, created_at, confirmed_at, public_free)
       values (?, ?, null, ?, 1, ?, ?, 'Afterwork im Hafen', null, null, ?, ?, ?, ?, null)`,
    );
    const job = db.prepare(
      `insert into jobs (name, key, subject, payload, attempts, next_attempt_at, requested_at, created_at, done_at)
       values (?, ?, ?, '{}', 0, ?, ?, ?, ?)`,
    );
    let tickets = 0;
    db.transaction(() => {
      for (let i = 0; i < ORDERS; i += 1) {
        const id = `ord_bench_${i}`;
        const status = STATES[i % STATES.length]!;
        const paid = !['open', 'expired'].includes(status);
        order.run(
          id,
          `tps_${id}`,
          status,
          `gast${i}@example.org`,
          now,
          now,
          paid ? now : null,
          now,
        );
        if (!paid) continue;
        for (let seat = 1; seat <= TICKETS_PER_ORDER; seat += 1) {
          const ticketId = `t${randomBytes(8).toString('base64url')}`;
          const revoked = status === 'refunded';
          ticket.run(
            ticketId,
            id,
            seat,
            TICKETS_PER_ORDER,
            101 + (i % 6),
            `Gast ${i}`,
            revoked ? 'revoked' : 'valid',
            now,
            revoked ? now : null,
          );
          tickets += 1;
          if (!revoked && tickets % 3 === 0) checkin.run(ticketId, `scan-${ticketId}`, now, now);
          // Every ticket mail done, as in a store after a season.
          job.run('tickets.mail', `${id}-${seat}`, id, now, now, now, now);
        }
      }
      for (let i = 0; i < 200; i += 1) {
        const status = ['pending', 'confirmed', 'offered'][i % 3]!;
        entry.run(
          `w${i}`,
          101 + (i % 6),
          101 + (i % 6),
          `warte${i}@example.org`,
          status,
          `c${i}`,
          `u${i}`,
          now,
          status === 'pending' ? null : now,
        );
      }
    })();
    return tickets;
  } finally {
    db.close();
  }
}

/** ms from the request to the last byte of the scrape. */
async function scrape(url: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  const ms = performance.now() - start;
  if (res.status !== 200 || !body.includes('tickets_issued')) {
    throw new Error(`/metrics answered ${res.status}`);
  }
  return ms;
}

async function scrapes(url: string): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i += 1) await scrape(url);
  const runs: number[] = [];
  for (let i = 0; i < SCRAPES; i += 1) runs.push(await scrape(url));
  return runs;
}

export async function measureMetrics(dataDir: string): Promise<MetricsFigures> {
  let site: RunningSite | null = null;
  try {
    const file = join(dataDir, 'awhh-metrics.db');
    const port = await freePort();
    site = await startSite({
      DATABASE_URL: `sqlite:${file}`,
      METRICS_PORT: String(port),
      LOG_LEVEL: 'error',
    });
    const url = `http://127.0.0.1:${port}/metrics`;
    const emptyMs = await scrapes(url);
    const tickets = seed(file);
    const seededMs = await scrapes(url);
    const body = await (await fetch(url)).text();
    if (!body.includes(`tickets_issued ${tickets}`)) {
      throw new Error(`the scrape does not count the ${tickets} tickets written`);
    }
    return { tickets, emptyMs, seededMs };
  } finally {
    await site?.stop();
  }
}

const median = (values: number[]) => percentile(values, 50);

export function metricsRows(figures: MetricsFigures): MetricsRow[] {
  const { tickets, emptyMs, seededMs } = figures;
  return [
    {
      group: 'metrics',
      metric: `GET /metrics, empty store (reference), median of ${emptyMs.length}`,
      runs: [median(emptyMs)],
      unit: 'ms',
    },
    {
      group: 'metrics',
      metric: `GET /metrics, ${tickets.toLocaleString('en')} tickets, median of ${seededMs.length}`,
      runs: [median(seededMs)],
      unit: 'ms',
      budget: { op: '<=', value: METRICS_BUDGET_MS },
    },
    {
      group: 'metrics',
      metric: `GET /metrics, ${tickets.toLocaleString('en')} tickets, p95 of ${seededMs.length}`,
      runs: [percentile(seededMs, 95)],
      unit: 'ms',
    },
  ];
}
