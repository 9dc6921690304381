import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { orderSummarySchema, ticketSchema } from '@awhh/machines';
import { PrivacyRepository } from '../../src/privacy/privacy.port.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { TRANSFER_JOBS } from '../../src/tickets/ticket-transfer.jobs.js';
import { TRANSFERRED_TOO_OFTEN_MESSAGE } from '../../src/tickets/ticket-holders.service.js';
import { TicketService } from '../../src/tickets/ticket.service.js';
import { TicketRepository } from '../../src/tickets/tickets.port.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
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

// rules "Named tickets": every ticket has a holder, named with the ticket's own token, and
// a ticket passed on gets a new token and code: the old ones are refused at the door.

jest.setTimeout(120_000);

const CHECKIN_CODE = 'JFWZ-APMB-F8MN-68XF';
const ORGANIZER_CODE = 'Pp8h-Ab6x-Pzdp-5g4f';
/** Tonight, in five hours: passing on closes two hours before. */
const EVENT_START = new Date(Date.now() + 5 * 3_600_000).toISOString();
const PASSED_ON =
  'Dieses Ticket wurde an eine andere Person weitergegeben. Dieser Link, sein QR-Code und sein Ticket-Code gelten nicht mehr.';

function holderCatalog(): FakeCatalog {
  const catalog = new FakeCatalog();
  catalog.productById(101).meta_data = [
    { key: 'event_date', value: EVENT_START },
    { key: 'venue', value: 'Strandperle' },
  ];
  return catalog;
}

describe.each(API_DATABASES)('named tickets (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await createTestApp({
      databaseUrl: db.url,
      catalog: holderCatalog(),
      env: { CHECKIN_CODE, ORGANIZER_CODE },
    });
  });
  afterAll(async () => {
    await settleOutbox(app).catch(() => undefined);
    await app.close();
    await db.drop();
  });
  beforeEach(async () => {
    await settleOutbox(app).catch(() => undefined);
    const store = app.get(StoreDatabase).db;
    await store.deleteFrom('checkin_scans').execute();
    await store.deleteFrom('checkins').execute();
    await store.deleteFrom('ticket_transfers').execute();
    await resetStore(app);
  });

  const store = () => app.get(StoreDatabase).db;

  /** Buys three seats of event 101 as Karla; the order's summary with its tickets. */
  async function buy() {
    const res = await postCheckout(app, checkoutBody([line(101, 25, 3)]));
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json() as { id: string; url: string };
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm({ email: 'karla@example.org', name: 'Karla Kundin' }),
    });
    expect(paid.statusCode).toBe(303);
    const summary = await inject(app, { method: 'GET', url: `/api/checkout/session/${id}` });
    return { sessionId: id, order: orderSummarySchema.parse(summary.json()) };
  }

  function post(url: string, payload: unknown) {
    return inject(app, {
      method: 'POST',
      url,
      headers: { 'x-forwarded-for': freshIp() },
      payload,
    });
  }

  async function ticket(token: string) {
    const res = await inject(app, { method: 'GET', url: `/api/tickets/${token}` });
    expect(res.statusCode).toBe(200);
    return ticketSchema.parse(res.json());
  }

  async function scan(payload: Record<string, unknown>) {
    const res = await inject(app, {
      method: 'POST',
      url: '/api/checkin/scans',
      headers: { authorization: `Bearer ${CHECKIN_CODE}`, 'x-forwarded-for': freshIp() },
      payload: {
        scans: [
          { scanId: `s-${Math.random()}`, scannedAt: Date.now(), device: 'Tür 1', ...payload },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    return res.json().results[0].status as string;
  }

  async function mails(subject: string) {
    return store()
      .selectFrom('mails')
      .selectAll()
      .where('subject', 'like', `${subject}%`)
      .orderBy('created_at')
      .execute();
  }

  async function transferJobsDone() {
    await waitFor(async () => {
      const open = await store()
        .selectFrom('jobs')
        .select('id')
        .where('name', 'in', Object.values(TRANSFER_JOBS))
        .where('done_at', 'is', null)
        .executeTakeFirst();
      return !open;
    }, 15_000);
  }

  it('the buyer holds the first ticket; the others are named with their own token, the wrong one names nothing', async () => {
    const { order } = await buy();
    expect(order.tickets.map((t) => t.holder)).toEqual(['Karla Kundin', null, null]);
    const [, second, third] = order.tickets;

    const named = await post(`/api/tickets/${second!.token}/holder`, {
      name: '  Jonas Jansen ',
      company: 'Hafenkontor GmbH',
    });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual({ holder: 'Jonas Jansen', company: 'Hafenkontor GmbH' });
    expect(await ticket(second!.token)).toMatchObject({
      holder: 'Jonas Jansen',
      company: 'Hafenkontor GmbH',
      transferable: true,
    });
    // The third ticket is untouched: a token names its own ticket only.
    expect((await ticket(third!.token)).holder).toBeNull();

    const [header, payload, signature] = third!.token.split('.');
    const altered = `${header}.${payload}.${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`;
    for (const bad of [altered, 'kein-ticket']) {
      const refused = await post(`/api/tickets/${bad}/holder`, { name: 'Mallory' });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(
        'Dieses Ticket kennen wir nicht. Bitte prüfe den Link aus deiner Bestätigungsmail.',
      );
    }
    for (const [body, message] of [
      [{ name: 'J' }, 'name: Bitte gib einen Namen mit mindestens 2 Zeichen ein.'],
      [{ name: 'x'.repeat(81) }, 'name: Der Name ist zu lang (höchstens 80 Zeichen).'],
      [
        { name: 'Ole', company: 'y'.repeat(81) },
        'company: Der Firmenname ist zu lang (höchstens 80 Zeichen).',
      ],
      [{ name: 'Ole\u0000' }, 'name: Der Name enthält ungültige Zeichen.'],
    ] as const) {
      const res = await post(`/api/tickets/${third!.token}/holder`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
    }
    expect((await ticket(third!.token)).holder).toBeNull();
    // The success page shows the names too.
    const again = await inject(app, { method: 'GET', url: `/api/checkout/session/${order.id}` });
    expect(orderSummarySchema.parse(again.json()).tickets.map((t) => t.holder)).toEqual([
      'Karla Kundin',
      'Jonas Jansen',
      null,
    ]);
  });

  it('rules "Named tickets": a ticket is passed on three times a day at most; the next holder\'s mail names the one who gave it', async () => {
    const { order } = await buy();
    let token = order.tickets[0]!.token;
    const { id } = await ticket(token);
    const holders = ['Mia Meyer', 'Jonas Jansen', 'Lena Lorenz'];
    for (const [i, name] of holders.entries()) {
      const res = await post(`/api/tickets/${token}/transfer`, {
        name,
        company: null,
        email: `gast${i}@example.org`,
      });
      expect(res.statusCode).toBe(200);
      // Each holder's mail goes before the next transfer: a mail whose generation was passed
      // on before its job ran is (rightly) not sent, and a loaded machine runs jobs late.
      await transferJobsDone();
      const [current] = await app
        .get(TicketService)
        .withTokens([(await app.get(TicketRepository).find(id))!], () => null);
      token = current!.ticket.token;
    }
    const fourth = await post(`/api/tickets/${token}/transfer`, {
      name: 'Max Muster',
      company: null,
      email: 'max@example.org',
    });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toBe(TRANSFERRED_TOO_OFTEN_MESSAGE);
    await transferJobsDone();
    const toHolders = await mails('Ein Ticket für dich');
    expect(toHolders.map((m) => m.to_address)).toEqual([
      'gast0@example.org',
      'gast1@example.org',
      'gast2@example.org',
    ]);
    expect(toHolders[0]!.text).toContain('Karla Kundin hat dir ein Ticket');
    expect(toHolders[1]!.text).toContain('Mia Meyer hat dir ein Ticket');
    expect(toHolders[2]!.text).toContain('Jonas Jansen hat dir ein Ticket');
  });

  it('passing a ticket on: a new token and code for the new holder, the old ones refused at the door, each mail once', async () => {
    const { order } = await buy();
    const old = order.tickets[1]!;
    const before = await ticket(old.token);

    const res = await post(`/api/tickets/${old.token}/transfer`, {
      name: 'Mia Meyer',
      company: 'Elbwerk',
      email: 'mia@example.org',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ holder: 'Mia Meyer', email: 'mia@example.org' });
    // The answer carries no token: the new link reaches the new holder by mail only.
    expect(res.body).not.toContain('eyJ');

    // The old link, its naming and a second transfer with it are refused alike.
    const oldPage = await inject(app, { method: 'GET', url: `/api/tickets/${old.token}` });
    expect(oldPage.statusCode).toBe(410);
    expect(oldPage.json().message).toBe(PASSED_ON);
    expect((await post(`/api/tickets/${old.token}/holder`, { name: 'Karla' })).statusCode).toBe(
      410,
    );
    const twice = await post(`/api/tickets/${old.token}/transfer`, {
      name: 'Max Muster',
      email: 'max@example.org',
    });
    expect(twice.statusCode).toBe(410);

    await transferJobsDone();
    const toHolder = await mails('Ein Ticket für dich');
    expect(toHolder.map((m) => m.to_address)).toEqual(['mia@example.org']);
    // Named by who passed it on (seat 2 had no name yet: the buyer's), nothing else of theirs.
    expect(toHolder[0]!.text).toContain('Karla Kundin hat dir ein Ticket für „');
    const notice = await mails('Ticket weitergegeben');
    expect(notice.map((m) => m.to_address)).toEqual(['karla@example.org']);
    expect(notice[0]!.text).toContain('wurde an Mia Meyer weitergegeben');

    const newToken = /\/tickets\/([A-Za-z0-9_.-]+)/.exec(toHolder[0]!.text)?.[1];
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(old.token);
    const moved = await ticket(newToken!);
    expect(moved).toMatchObject({
      holder: 'Mia Meyer',
      company: 'Elbwerk',
      seat: 2,
      status: 'valid',
    });
    expect(moved.code).not.toBe(before.code);

    // A confirmation mailed late (its mail server was down) carries the buyer's tickets only.
    const { order_id: orderId } = await store()
      .selectFrom('tickets')
      .select('order_id')
      .where('id', '=', moved.id)
      .executeTakeFirstOrThrow();
    const forBuyer = await app.get(TicketService).forOrder(orderId, null);
    expect(forBuyer.map((t) => t.ticket.seat)).toEqual([1, 3]);
    expect(forBuyer.map((t) => t.ticket.token)).not.toContain(newToken);

    // The door's offline list: the holder and company, the generation and the old code.
    const list = await inject(app, {
      method: 'GET',
      url: '/api/checkin/events/101/tickets',
      headers: { authorization: `Bearer ${CHECKIN_CODE}`, 'x-forwarded-for': freshIp() },
    });
    const listed = list.json().tickets.find((t: { id: string }) => t.id === moved.id);
    expect(listed).toMatchObject({
      holder: 'Mia Meyer',
      company: 'Elbwerk',
      generation: 1,
      passedOnCodes: [before.code],
      code: moved.code,
    });
    expect(list.json().tickets.filter((t: { generation?: number }) => t.generation)).toHaveLength(
      1,
    );

    // The door, as it sees the tickets: the old token and the old code are refused, the
    // new ones admit once.
    expect(await scan({ token: old.token })).toBe('invalid');
    expect(await scan({ code: before.code, eventId: 101 })).toBe('invalid');
    expect(await scan({ token: newToken })).toBe('ok');
    expect(await scan({ code: moved.code, eventId: 101 })).toBe('already');

    // The success page keeps the buyer's old link, marked as passed on.
    const summary = orderSummarySchema.parse(
      (await inject(app, { method: 'GET', url: `/api/checkout/session/${order.id}` })).json(),
    );
    expect(summary.tickets[1]).toMatchObject({
      token: old.token,
      passedOn: true,
      holder: 'Mia Meyer',
    });

    // A resend: the buyer's address no longer brings this ticket, the new holder's does.
    await post('/api/tickets/resend', { email: 'mia@example.org' });
    await transferJobsDone();
    expect((await mails('Ein Ticket für dich')).map((m) => m.to_address)).toEqual([
      'mia@example.org',
      'mia@example.org',
    ]);
    expect(await mails('Ticket weitergegeben')).toHaveLength(1);

    // Erasing the new holder's address leaves the ticket nobody's: not the buyer's again.
    await app.get(PrivacyRepository).eraseAddress('MIA@example.org');
    const erased = await store()
      .selectFrom('tickets')
      .select(['holder', 'holder_company', 'holder_email'])
      .where('id', '=', moved.id)
      .executeTakeFirstOrThrow();
    expect(erased).toEqual({ holder: null, holder_company: null, holder_email: '' });
    await post('/api/tickets/resend', { email: 'karla@example.org' });
    await settleOutbox(app);
    const resent = await mails('Deine Tickets von');
    expect(resent).toHaveLength(1);
    expect(resent[0]!.text).not.toContain(newToken!);
  });

  it('refused too late, once checked in, and for a cancelled ticket, with a German reason', async () => {
    const { order } = await buy();
    const [first, second, third] = order.tickets;
    const to = { name: 'Mia Meyer', email: 'mia@example.org' };

    expect(await scan({ token: first!.token })).toBe('ok');
    const checkedIn = await post(`/api/tickets/${first!.token}/transfer`, to);
    expect(checkedIn.statusCode).toBe(409);
    expect(checkedIn.json().message).toBe(
      'Dieses Ticket wurde schon am Einlass eingecheckt und kann nicht mehr weitergegeben werden.',
    );

    // An hour before the start: the window closed an hour ago.
    await store()
      .updateTable('tickets')
      .set({ starts_at: new Date(Date.now() + 3_600_000).toISOString() })
      .execute();
    expect((await ticket(second!.token)).transferable).toBe(false);
    const late = await post(`/api/tickets/${second!.token}/transfer`, to);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message:
        'Tickets können nur bis 2 Stunden vor Beginn weitergegeben werden – für dieses Event ist das nicht mehr möglich. Bei Fragen schreib uns gern.',
    });

    await store().updateTable('tickets').set({ status: 'revoked' }).execute();
    const revoked = await post(`/api/tickets/${third!.token}/transfer`, to);
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().message).toBe(
      'Dieses Ticket ist storniert und kann weder benannt noch weitergegeben werden.',
    );
    expect((await post(`/api/tickets/${third!.token}/transfer`, { name: 'Mia' })).statusCode).toBe(
      400,
    );
    expect(await store().selectFrom('ticket_transfers').selectAll().execute()).toEqual([]);
  });

  it('naming and passing on are rate-limited per client address, with a German 429', async () => {
    const { order } = await buy();
    const token = order.tickets[1]!.token;
    const from = (ip: string, url: string, payload: unknown) =>
      inject(app, { method: 'POST', url, headers: { 'x-forwarded-for': ip }, payload });
    const ip = freshIp();
    for (let i = 0; i < 30; i += 1) {
      expect(
        (await from(ip, `/api/tickets/${token}/holder`, { name: `Gast ${i}` })).statusCode,
      ).toBe(200);
    }
    const limited = await from(ip, `/api/tickets/${token}/holder`, { name: 'Gast 31' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().message).toBe(
      'Du hast gerade sehr viele Namen geändert. Bitte versuche es in ein paar Minuten erneut.',
    );
    // Refused transfers count too: five tries, then 429, and nothing was passed on.
    const other = freshIp();
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await from(other, `/api/tickets/${token}/transfer`, { name: 'Mia' })).statusCode,
      ).toBe(400);
    }
    const blocked = await from(other, `/api/tickets/${token}/transfer`, {
      name: 'Mia Meyer',
      email: 'mia@example.org',
    });
    expect(blocked.statusCode).toBe(429);
    expect(await store().selectFrom('ticket_transfers').selectAll().execute()).toEqual([]);
  });

  it('the organizer edits a holder behind the sign-in, from the site’s own pages', async () => {
    const { order } = await buy();
    const id = (await ticket(order.tickets[2]!.token)).id;
    const signIn = await inject(app, {
      method: 'POST',
      url: '/api/organizer/session',
      headers: { origin: PUBLIC_URL, 'x-forwarded-for': freshIp() },
      payload: { code: ORGANIZER_CODE },
    });
    expect(signIn.statusCode).toBe(204);
    const cookie = signIn.headers['set-cookie']!.split(';')[0]!;
    const put = (ticketId: string, payload: unknown, headers: Record<string, string>) =>
      inject(app, {
        method: 'PUT',
        url: `/api/organizer/tickets/${ticketId}/holder`,
        headers,
        payload,
      });

    const body = { name: 'Lena Lotse', company: 'Lotsenhaus' };
    expect((await put(id, body, { origin: PUBLIC_URL })).statusCode).toBe(401);
    expect((await put(id, body, { cookie })).statusCode).toBe(403);
    const done = await put(id, body, { cookie, origin: PUBLIC_URL });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ ticketId: id, holder: 'Lena Lotse', company: 'Lotsenhaus' });
    // The token stays valid: the organizer's edit is no transfer.
    expect(await ticket(order.tickets[2]!.token)).toMatchObject({ holder: 'Lena Lotse' });
    expect((await put('tNIEMAND', body, { cookie, origin: PUBLIC_URL })).statusCode).toBe(404);
    expect((await put(id, { name: '' }, { cookie, origin: PUBLIC_URL })).statusCode).toBe(400);

    // A cancelled ticket keeps its name: a German 409, nothing written.
    await store().updateTable('tickets').set({ status: 'revoked' }).where('id', '=', id).execute();
    const cancelled = await put(id, { name: 'Nachher' }, { cookie, origin: PUBLIC_URL });
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().message).toMatch(/storniert/);
    const kept = await store()
      .selectFrom('tickets')
      .select('holder')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(kept.holder).toBe('Lena Lotse');
  });
});
