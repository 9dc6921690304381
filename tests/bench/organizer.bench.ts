import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type RunningSite, startSite } from '../support/site.js';
import { percentile } from './tickets.bench.js';

/**
 * The organizer's budgets (rules "The organizer"), on one site process (the built backend
 * on the demo catalog, signed in with the organizer code):
 * - the dashboard of an event with 2,000 tickets: its first answer
 *   (`GET /api/organizer/events`, what /veranstalter renders first) ≤ 300 ms server time;
 * - the guest list's CSV of those 2,000 tickets ≤ 1 s;
 * - a guest-list search over those 2,000 tickets (`GET …/attendees?q=`: a name's start, an
 *   e-mail address, an order number, a short code) ≤ 50 ms server answer (p95);
 * - the name badges of an event with 300 tickets (A4 sheets and label pages) ≤ 10 s.
 * The tickets are written into the store as orders made in the shop (one seat each, a name
 * per seat): how they were bought is not what is measured, and 2,300 ticket mails with their
 * PDFs would keep both cores busy for minutes first.
 */

export const DASHBOARD_BUDGET_MS = 300;
export const CSV_BUDGET_MS = 1_000;
export const BADGES_BUDGET_MS = 10_000;
export const GUEST_SEARCH_BUDGET_MS = 50;

export interface OrganizerFigures {
  tickets: { dashboard: number; badges: number };
  /** ms of the first GET /api/organizer/events after start, then of warm ones. */
  dashboardFirstMs: number;
  dashboardWarmMs: number[];
  /** ms per CSV download; empty when the site has no CSV route. */
  csvMs: number[];
  /** ms per guest-list search answer (the first round of each query warms up, not kept). */
  searchMs: number[];
  badgesA4Ms: number[];
  badgesLabelMs: number[];
}

export interface OrganizerRow {
  group: string;
  metric: string;
  runs: number[];
  unit: string;
  budget?: { op: '<=' | '>='; value: number };
}

/** Demo catalog events (backend/src/catalog/adapters/demo-catalog.adapter.ts). */
const DASHBOARD_EVENT = 101;
const BADGE_EVENT = 102;
const DASHBOARD_TICKETS = Number(process.env.BENCH_ORGANIZER_TICKETS ?? 2_000);
const BADGE_TICKETS = 300;
const WARM_RUNS = 5;
const FILE_RUNS = 3;
const SEARCH_ROUNDS = 12;
const ORGANIZER_CODE = '3qtn-Rjmq-T55a-Yc92';
const FIRST = ['Karla', 'Jonas', 'Aylin', 'Mia', 'Finn', 'Jörg', 'Zoë', 'Clara', 'Emil', 'Ida'];
const LAST = ['Kundin', 'Becker', 'Yılmaz', 'Schröder', 'Hansen', 'Özdemir', 'Adler', 'Weiß'];
const COMPANIES = ['Hafenkontor GmbH', 'Elbblick & Partner', null, 'Speicherstadt Digital'];
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function shortCode(): string {
  let code = '';
  for (const byte of randomBytes(8)) code += CODE_ALPHABET[byte & 31];
  return code;
}

/** `count` one-seat shop orders of the event, each ticket with a holder. */
function seed(file: string, eventId: number, eventName: string, count: number): void {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    const now = Date.now();
    const startsAt = new Date(now + 2 * 3_600_000).toISOString();
    // A holder's company where the store has the column (named tickets): the badges and
    // the CSV then carry it.
    const withCompany = (db.pragma('table_info(tickets)') as { name: string }[]).some(
      (c) => c.name === 'holder_company',
    );
    const order = db.prepare(
      `insert into shop_orders (id, number, status, modified_at, email, holder, total, created_at, updated_at)
       values (?, ?, 'completed', ?, ?, ?, 2500, ?, ?)`,
    );
    const ticket = db.prepare(
      `insert into tickets (id, order_id, line_position, seat, seats, event_id, variation_id,
         event_name, event_slug, starts_at, venue, tier, holder, status, issued_at, code${withCompany ? ', holder_company' : ''})
       values (?, ?, 0, 1, 1, ?, null, ?, null, ?, 'Hafenklang, Hamburg', ?, ?, 'valid', ?, ?${withCompany ? ', ?' : ''})`,
    );
    const codes = new Set<string>();
    db.transaction(() => {
      for (let i = 0; i < count; i += 1) {
        const holder = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
        const orderId = `shop-${eventId}${String(i).padStart(5, '0')}`;
        let code = shortCode();
        while (codes.has(code)) code = shortCode();
        codes.add(code);
        order.run(orderId, `${eventId}${i}`, now, `gast${i}@example.org`, holder, now, now);
        ticket.run(
          `t${eventId}x${randomBytes(8).toString('base64url')}`,
          orderId,
          eventId,
          eventName,
          startsAt,
          i % 5 === 0 ? 'VIP' : 'Regulär',
          holder,
          now - (count - i) * 60_000,
          code,
          ...(withCompany ? [COMPANIES[i % COMPANIES.length]!] : []),
        );
      }
    })();
  } finally {
    db.close();
  }
}

/** ms from the request to the last byte of the answer. */
async function timed(
  url: string,
  cookie: string,
): Promise<{ ms: number; status: number; headers: Headers }> {
  const start = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  await res.arrayBuffer();
  return { ms: performance.now() - start, status: res.status, headers: res.headers };
}

export async function measureOrganizer(dataDir: string): Promise<OrganizerFigures> {
  let site: RunningSite | null = null;
  try {
    const file = join(dataDir, 'awhh-organizer.db');
    site = await startSite({
      DATABASE_URL: `sqlite:${file}`,
      ORGANIZER_CODE,
      LOG_LEVEL: 'error',
    });
    seed(file, DASHBOARD_EVENT, 'Afterwork auf der Dachterrasse', DASHBOARD_TICKETS);
    seed(file, BADGE_EVENT, 'Elbstrand Sundowner', BADGE_TICKETS);

    const signIn = await fetch(`${site.url}/api/organizer/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site.url },
      body: JSON.stringify({ code: ORGANIZER_CODE }),
    });
    if (signIn.status !== 204) throw new Error(`sign-in answered ${signIn.status}`);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;

    const events = `${site.url}/api/organizer/events`;
    const first = await timed(events, cookie);
    if (first.status !== 200) throw new Error(`the dashboard answered ${first.status}`);
    const dashboardWarmMs: number[] = [];
    for (let i = 0; i < WARM_RUNS; i += 1) dashboardWarmMs.push((await timed(events, cookie)).ms);

    const csvUrl = `${site.url}/api/organizer/events/${DASHBOARD_EVENT}/attendees.csv`;
    const csvMs: number[] = [];
    if ((await timed(csvUrl, cookie)).status === 200) {
      for (let i = 0; i < FILE_RUNS; i += 1) {
        const run = await timed(csvUrl, cookie);
        if (run.status !== 200) throw new Error(`the CSV answered ${run.status}`);
        csvMs.push(run.ms);
      }
    }

    const searchMs = await measureSearch(site.url, file, cookie);

    const badges = (layout: string) =>
      `${site!.url}/api/organizer/events/${BADGE_EVENT}/badges.pdf${layout}`;
    const badgesA4Ms: number[] = [];
    const badgesLabelMs: number[] = [];
    for (let i = 0; i < FILE_RUNS; i += 1) {
      for (const [layout, list] of [
        ['', badgesA4Ms],
        ['?layout=label', badgesLabelMs],
      ] as const) {
        const run = await timed(badges(layout), cookie);
        if (run.status !== 200) throw new Error(`the badges answered ${run.status}`);
        if (run.headers.get('x-badge-count') !== String(BADGE_TICKETS)) {
          throw new Error(`${run.headers.get('x-badge-count')} badges, not ${BADGE_TICKETS}`);
        }
        list.push(run.ms);
      }
    }

    return {
      tickets: { dashboard: DASHBOARD_TICKETS, badges: BADGE_TICKETS },
      dashboardFirstMs: first.ms,
      dashboardWarmMs,
      csvMs,
      searchMs,
      badgesA4Ms,
      badgesLabelMs,
    };
  } finally {
    await site?.stop();
  }
}

/**
 * The guest list's search as the organizer types it: a name's start, a whole e-mail
 * address, an order number, a short code (with a dash, lower case), each of which must find
 * its ticket, so a search that answers fast but finds nothing does not pass.
 */
async function measureSearch(url: string, file: string, cookie: string): Promise<number[]> {
  const db = new Database(file, { readonly: true });
  let probe: { id: string; code: string; email: string; number: string };
  try {
    probe = db
      .prepare(
        `select t.id as id, t.code as code, o.email as email, o.number as number
           from tickets t join shop_orders o on o.id = t.order_id
          where t.event_id = ? order by t.issued_at desc limit 1`,
      )
      .get(DASHBOARD_EVENT) as typeof probe;
  } finally {
    db.close();
  }
  const code = `${probe.code.slice(0, 4)}-${probe.code.slice(4)}`.toLowerCase();
  const queries: [string, (ids: string[]) => boolean][] = [
    ['kar', (ids) => ids.length > 0],
    [probe.email, (ids) => ids.includes(probe.id)],
    [probe.number, (ids) => ids.includes(probe.id)],
    [code, (ids) => ids[0] === probe.id],
  ];
  const base = `${url}/api/organizer/events/${DASHBOARD_EVENT}/attendees?offset=0&limit=50&q=`;
  const runs: number[] = [];
  for (let round = 0; round <= SEARCH_ROUNDS; round += 1) {
    for (const [q, found] of queries) {
      const start = performance.now();
      const res = await fetch(base + encodeURIComponent(q), { headers: { cookie } });
      const body = (await res.json()) as { attendees?: { ticketId: string }[] };
      const ms = performance.now() - start;
      if (res.status !== 200) throw new Error(`the search for ${q} answered ${res.status}`);
      if (!found((body.attendees ?? []).map((a) => a.ticketId))) {
        throw new Error(`the search for ${q} did not find its ticket`);
      }
      if (round > 0) runs.push(ms);
    }
  }
  return runs;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function organizerRows(f: OrganizerFigures): OrganizerRow[] {
  const n = f.tickets.dashboard;
  const rows: OrganizerRow[] = [
    {
      group: 'organizer',
      metric: `dashboard, event with ${n} tickets, first answer`,
      runs: [f.dashboardFirstMs],
      unit: 'ms',
      budget: { op: '<=', value: DASHBOARD_BUDGET_MS },
    },
    {
      group: 'organizer',
      metric: `dashboard, event with ${n} tickets, p95 of ${f.dashboardWarmMs.length} warm`,
      runs: [percentile(f.dashboardWarmMs, 95)],
      unit: 'ms',
    },
  ];
  if (f.csvMs.length > 0) {
    rows.push({
      group: 'organizer',
      metric: `guest list CSV, ${n} tickets, median of ${f.csvMs.length}`,
      runs: [median(f.csvMs)],
      unit: 'ms',
      budget: { op: '<=', value: CSV_BUDGET_MS },
    });
  }
  rows.push(
    {
      group: 'organizer',
      metric: `guest-list search (name, e-mail, order number, code), ${n} tickets, median of ${f.searchMs.length}`,
      runs: [median(f.searchMs)],
      unit: 'ms',
    },
    {
      group: 'organizer',
      metric: `guest-list search (name, e-mail, order number, code), ${n} tickets, p95 of ${f.searchMs.length}`,
      runs: [percentile(f.searchMs, 95)],
      unit: 'ms',
      budget: { op: '<=', value: GUEST_SEARCH_BUDGET_MS },
    },
    {
      group: 'organizer',
      metric: `name badges, ${f.tickets.badges} on A4 sheets, median of ${f.badgesA4Ms.length}`,
      runs: [median(f.badgesA4Ms)],
      unit: 'ms',
      budget: { op: '<=', value: BADGES_BUDGET_MS },
    },
    {
      group: 'organizer',
      metric: `name badges, ${f.tickets.badges} label pages, median of ${f.badgesLabelMs.length}`,
      runs: [median(f.badgesLabelMs)],
      unit: 'ms',
      budget: { op: '<=', value: BADGES_BUDGET_MS },
    },
  );
  return rows;
}
