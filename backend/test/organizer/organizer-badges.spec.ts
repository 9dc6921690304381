import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { badgesOf, splitName } from '../../src/organizer/organizer-badges.js';
import type { DoorTicket } from '../../src/door/door.port.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  FakeCatalog,
  freshIp,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
  waitFor,
} from '../support/checkout-test-app.js';
import { StoreDatabase } from '../../src/store/store.database.js';

jest.setTimeout(120_000);

// rules "The organizer": the name badges as the organizer downloads and prints them: the
// PDF read back with poppler (pages, text in order), one sheet rendered to a PNG in /tmp.

const ORGANIZER_CODE = 'Pp8h-Ab6x-Pzdp-5g4f';
const EVENT = 101;
const PDFINFO = '/usr/bin/pdfinfo';
const PDFTOTEXT = '/usr/bin/pdftotext';
const PDFTOPPM = '/usr/bin/pdftoppm';
const poppler = existsSync(PDFINFO) && existsSync(PDFTOTEXT) && existsSync(PDFTOPPM);
const withPoppler = poppler ? describe : describe.skip;
/** The valid tickets' holders by last name, then first name. */
const SORTED = [
  'Clara Adler',
  'Dr. Max Albers',
  'Anna Becker',
  'Bernd Becker',
  'Karl Müller',
  'Jörg Özdemir',
  'Yusuf Yilmaz',
  'Zoe Zander',
];

describe('badges: names and order', () => {
  const ticket = (holder: string | null, tier: string | null, status = 'valid', company?: string) =>
    ({ id: `t-${holder}`, holder, tier, status, company }) as unknown as DoorTicket;

  it('rules "The organizer": the first name without titles, sorted by last name, nameless last, revoked never', () => {
    expect(splitName('Dr. Anna von der Heide')).toEqual({ first: 'Anna', last: 'Heide' });
    expect(splitName('Cher')).toEqual({ first: 'Cher', last: 'Cher' });
    const badges = badgesOf(
      [
        ticket('Zoe Zander', 'VIP'),
        ticket(null, 'Regulär'),
        ticket('Jörg Özdemir', 'Regulär'),
        ticket('Ulla Ulm', 'VIP', 'revoked'),
        ticket('anna becker', 'Regulär', 'valid', ' Elbblick & Partner '),
        ticket('Prof. Max Albers', null),
      ],
      ['Regulär', 'VIP'],
    );
    expect(badges.map((b) => [b.firstName, b.fullName, b.company, b.tier, b.tierIndex])).toEqual([
      ['Max', 'Prof. Max Albers', null, 'Ticket', 2],
      ['anna', 'anna becker', 'Elbblick & Partner', 'Regulär', 0],
      ['Jörg', 'Jörg Özdemir', null, 'Regulär', 0],
      ['Zoe', 'Zoe Zander', null, 'VIP', 1],
      ['', '', null, 'Regulär', 0],
    ]);
  });
});

withPoppler('GET /api/organizer/events/:id/badges.pdf', () => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'awhh-badges-'));
    app = await createTestApp({
      databaseUrl: db.url,
      catalog: new FakeCatalog(),
      env: { ORGANIZER_CODE },
    });
    await resetStore(app);
  });
  afterAll(async () => {
    await settleOutbox(app).catch(() => undefined);
    await app.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function signIn(): Promise<string> {
    const res = await inject(app, {
      method: 'POST',
      url: '/api/organizer/session',
      headers: { 'x-forwarded-for': freshIp(), origin: PUBLIC_URL },
      payload: { code: ORGANIZER_CODE },
    });
    expect(res.statusCode).toBe(204);
    return res.headers['set-cookie']!.split(';')[0]!;
  }

  async function buy(name: string, quantity: number) {
    const res = await postCheckout(
      app,
      checkoutBody([line(EVENT, 25, quantity, 'Afterwork im Hafen')]),
    );
    expect(res.statusCode).toBe(201);
    const page = new URL(res.json().url).pathname;
    const paid = await inject(app, {
      method: 'POST',
      url: `${page}/pay`,
      ...buyerForm({ email: `${name.replace(/\W+/g, '.').toLowerCase()}@example.org`, name }),
    });
    expect(paid.statusCode).toBe(303);
    return page;
  }

  async function download(cookie: string | null, query = '') {
    const res = await fetch(
      `${await app.getUrl()}/api/organizer/events/${EVENT}/badges.pdf${query}`,
      { headers: { ...(cookie ? { cookie } : {}), 'x-forwarded-for': freshIp() } },
    );
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  }

  function saved(name: string, body: Buffer): string {
    const file = join(dir, name);
    writeFileSync(file, body);
    return file;
  }
  const pagesOf = (file: string) =>
    Number(/^Pages:\s+(\d+)/m.exec(execFileSync(PDFINFO, [file]).toString())![1]);
  const textOf = (file: string, page?: number) =>
    execFileSync(PDFTOTEXT, [
      ...(page ? ['-f', String(page), '-l', String(page)] : []),
      file,
      '-',
    ]).toString('utf8');

  it('rules "The organizer": nine valid tickets make two A4 sheets and nine labels, sorted by last name; a refunded order has none', async () => {
    const cookie = await signIn();
    // The buyer holds an order's first ticket; the others are named as "Wer kommt?" names
    // them, and one of Karl Müller's stays nameless.
    const named: Record<string, (string | null)[]> = {
      'Zoe Zander': ['Yusuf Yilmaz'],
      'Anna Becker': ['Clara Adler', 'Bernd Becker'],
      'Dr. Max Albers': [],
      'Jörg Özdemir': [],
      'Karl Müller': [null],
    };
    const store = app.get(StoreDatabase).db;
    for (const [buyer, others] of Object.entries(named)) {
      await buy(buyer, others.length + 1);
    }
    const refunded = await buy('Ulla Ulm', 1);
    expect((await inject(app, { method: 'POST', url: `${refunded}/refund` })).statusCode).toBe(303);
    await waitFor(async () => {
      const rows = await store
        .selectFrom('tickets')
        .select(['status'])
        .where('event_id', '=', EVENT)
        .execute();
      return rows.length === 10 && rows.filter((r) => r.status === 'valid').length === 9;
    }, 10_000);
    const tickets = await store
      .selectFrom('tickets')
      .select(['id', 'order_id', 'seat', 'holder'])
      .where('event_id', '=', EVENT)
      .execute();
    await store
      .updateTable('tickets')
      .set({ holder_company: 'Hafenkontor GmbH' })
      .where('holder', '=', 'Anna Becker')
      .execute();
    for (const t of tickets) {
      if (t.seat === 1) continue;
      const buyer = tickets.find((o) => o.order_id === t.order_id && o.seat === 1)!.holder!;
      await store
        .updateTable('tickets')
        .set({ holder: named[buyer]![t.seat - 2]! })
        .where('id', '=', t.id)
        .execute();
    }

    const a4 = await download(cookie);
    expect(a4.res.status).toBe(200);
    expect(a4.res.headers.get('content-type')).toBe('application/pdf');
    expect(a4.res.headers.get('cache-control')).toBe('no-store, private');
    expect(a4.res.headers.get('content-disposition')).toBe(
      `attachment; filename="namensschilder-${EVENT}-a4.pdf"`,
    );
    expect(a4.res.headers.get('x-badge-count')).toBe('9');
    const a4File = saved('a4.pdf', a4.body);
    expect(pagesOf(a4File)).toBe(2);
    expect(execFileSync(PDFINFO, [a4File]).toString()).toMatch(/Page size:\s+595\.\d+ x 841\.\d+/);
    // Sheet one: the eight named guests by last name; sheet two: the nameless ticket, blank.
    const first = textOf(a4File, 1);
    for (const name of SORTED) expect(first).toContain(name);
    expect(first).not.toContain('Ulla');
    expect(textOf(a4File, 2)).not.toMatch(/[a-zäöü]{2,} [A-ZÄÖÜ]/);

    const labels = await download(cookie, '?layout=label');
    expect(labels.res.status).toBe(200);
    const labelFile = saved('labels.pdf', labels.body);
    expect(pagesOf(labelFile)).toBe(9);
    expect(execFileSync(PDFINFO, [labelFile]).toString()).toMatch(
      /Page size:\s+255\.1\d* x 155\.9\d* pts/,
    );
    const order: (string | null)[] = [];
    for (let page = 1; page <= 9; page += 1) {
      const text = textOf(labelFile, page);
      order.push(SORTED.find((name) => text.includes(name)) ?? null);
    }
    expect(order).toEqual([...SORTED, null]);
    // The first name large, on its own line above the full name.
    expect(textOf(labelFile, 2)).toMatch(/^\s*Max\s*$/m);
    // The holder's company under the name.
    expect(textOf(labelFile, 3)).toMatch(/Anna Becker\s+Hafenkontor GmbH/);

    // A sheet as it prints, to look at.
    execFileSync(PDFTOPPM, ['-png', '-r', '60', '-f', '1', '-l', '1', a4File, '/tmp/awhh-badges']);
    execFileSync(PDFTOPPM, [
      '-png',
      '-r',
      '150',
      '-f',
      '1',
      '-l',
      '1',
      labelFile,
      '/tmp/awhh-badge-label',
    ]);

    // Without the cookie nothing; a wrong layout or event is a German answer, never a 500.
    expect((await download(null)).res.status).toBe(401);
    const wrong = await download(cookie, '?layout=plakat');
    expect(wrong.res.status).toBe(400);
    expect(JSON.parse(wrong.body.toString()).message).toMatch(/Format/);
    const unknown = await fetch(`${await app.getUrl()}/api/organizer/events/999/badges.pdf`, {
      headers: { cookie, 'x-forwarded-for': freshIp() },
    });
    expect(unknown.status).toBe(404);
    const nonsense = await fetch(`${await app.getUrl()}/api/organizer/events/abc/badges.pdf`, {
      headers: { cookie, 'x-forwarded-for': freshIp() },
    });
    expect(nonsense.status).toBe(404);
  });
});
