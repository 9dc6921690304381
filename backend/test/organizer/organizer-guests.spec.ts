import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  type Attendee,
  attendeeAnswerSchema,
  attendeeCancelAnswerSchema,
  attendeesSchema,
  foldForSearch,
  formatTicketCode,
  ORGANIZER_DEVICE,
} from '@awhh/machines';
import { FakeStripe } from '../../../tests/support/fake-stripe.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { recordedShop, WP_APP_PASSWORDS } from '../../../tests/support/woocommerce-fixtures.js';
import { csvCell } from '../../src/organizer/organizer-guests.js';
import { RESEND_LIMIT_MESSAGE } from '../../src/organizer/organizer-guests.controller.js';
import { FOREIGN_ORIGIN_MESSAGE } from '../../src/organizer/organizer.guard.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  deliver,
  FakeCatalog,
  fastOptions,
  freshIp,
  inject,
  organizerSignIn,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
  signedDelivery,
  STRIPE_KEY,
  waitFor,
} from '../support/checkout-test-app.js';
import { shopCatalog } from '../support/shop-catalog.js';

jest.setTimeout(120_000);

// rules "The organizer", the guest list, over HTTP against the checkout process with the
// recorded shop as the fake WooCommerce: the search (accents, company, address, order
// number, short code), the CSV as a spreadsheet reads it, check-in by hand reaching the
// door's list and its undo, a ticket mail again, and a ticket or a whole order cancelled
// with a refund at the test provider.

const CHECKIN_CODE = 'JFWZ-APMB-F8MN-68XF';
/** The recorded shop's variable event: VIP 49 € (4 places), Regulär 35 € (40). */
const EVENT = 42;
const VIP = 45;
const REGULAR = 44;
const EVENT_NAME = 'Sommer-Afterwork auf der MS Hamburg';

describe.each(API_DATABASES)("the organizer's guest list (%s)", (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let app: NestFastifyApplication;
  let cookie: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    shop = await FakeWooCommerce.start(recordedShop());
    const catalog = shopCatalog(shop);
    app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      env: { ...shop.env, CHECKIN_CODE },
      // The waiting list's pass looks often, so a place that came back is offered in time.
      options: fastOptions({ waitlistPassMs: 300 }),
    });
    for (const table of [
      'checkin_scans',
      'checkins',
      'waitlist_offers',
      'waitlist_entries',
      'ticket_transfers',
    ] as const) {
      await store().deleteFrom(table).execute();
    }
    await resetStore(app);
    cookie = await organizerSignIn(app, {
      username: 'hanna.hafen',
      applicationPassword: WP_APP_PASSWORDS.shopManager,
    });
  });
  afterEach(async () => {
    await settleOutbox(app).catch(() => undefined);
    await app.close();
    await shop.stop();
  });

  const store = () => app.get(StoreDatabase).db;

  function organizer(
    method: string,
    url: string,
    options: {
      payload?: unknown;
      origin?: string | null;
      ip?: string;
      cookie?: string | null;
    } = {},
  ) {
    const origin = options.origin === undefined ? PUBLIC_URL : options.origin;
    const sent = options.cookie === undefined ? cookie : options.cookie;
    return inject(app, {
      method,
      url,
      headers: {
        'x-forwarded-for': options.ip ?? freshIp(),
        ...(sent ? { cookie: sent } : {}),
        ...(method !== 'GET' && origin ? { origin } : {}),
      },
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });
  }

  async function attendees(query = ''): Promise<{ attendees: Attendee[]; total: number }> {
    const res = await organizer('GET', `/api/organizer/events/${EVENT}/attendees${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store, private');
    return attendeesSchema.parse(res.json());
  }

  async function buy(
    lines: ReturnType<typeof line>[],
    buyer: { email: string; name: string },
    coupon: unknown = null,
  ) {
    const res = await postCheckout(app, checkoutBody(lines, { coupon }));
    expect(res.statusCode).toBe(201);
    const { id: sessionId, url } = res.json();
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm(buyer),
    });
    expect(paid.statusCode).toBe(303);
    const order = await store()
      .selectFrom('orders')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    const tickets = await store()
      .selectFrom('tickets')
      .selectAll()
      .where('order_id', '=', order.id)
      .orderBy('line_position')
      .orderBy('seat')
      .execute();
    const summary = (
      await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` })
    ).json();
    const tokens = (summary.tickets as { token: string }[]).map((t) => t.token);
    return { orderId: order.id, tickets, tokens };
  }

  const tier = (variationId: number, price: number, quantity: number, name: string) => ({
    ...line(EVENT, price, quantity, `${EVENT_NAME} – ${name}`),
    variationId,
  });

  const handedOff = (orderId: string) =>
    waitFor(async () => {
      const row = await store()
        .selectFrom('orders')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();
      return row.status === 'handedOff';
    }, 10_000);

  const door = (method: string, url: string, payload?: unknown) =>
    inject(app, {
      method,
      url,
      headers: { authorization: `Bearer ${CHECKIN_CODE}`, 'x-forwarded-for': freshIp() },
      ...(payload !== undefined ? { payload } : {}),
    });

  async function doorTicket(ticketId: string) {
    const res = await door('GET', `/api/checkin/events/${EVENT}/tickets`);
    expect(res.statusCode).toBe(200);
    return (
      res.json().tickets as { id: string; checkedInAt?: string; checkedInDevice?: string }[]
    ).find((t) => t.id === ticketId)!;
  }

  it('rules "The organizer": the guest list finds guests by name without accents, by address, order number and short code; pages are bounded; bad input is a German 4xx', async () => {
    const mueller = await buy([tier(REGULAR, 35, 2, 'Regulär')], {
      email: 'j.mueller@reederei-nord.example',
      name: 'Jürgen Müller',
    });
    const schmidt = await buy([tier(VIP, 49, 1, 'VIP')], {
      email: 'anna@example.org',
      name: 'Anna Schmidt',
    });
    await handedOff(mueller.orderId);
    // The order's second seat has no name yet.
    await store()
      .updateTable('tickets')
      .set({ holder: null })
      .where('id', '=', mueller.tickets[1]!.id)
      .execute();

    const all = await attendees();
    expect(all.total).toBe(3);
    // The buyer's name is the first seat's; nameless seats come last.
    expect(all.attendees.map((a) => a.name)).toEqual(['Anna Schmidt', 'Jürgen Müller', null]);
    const { orderNumber: _number, ...anna } = all.attendees[0]!;
    expect(anna).toEqual({
      ticketId: schmidt.tickets[0]!.id,
      name: 'Anna Schmidt',
      company: null,
      email: 'anna@example.org',
      tier: 'VIP',
      status: 'valid',
      checkedInAt: null,
      device: null,
      code: formatTicketCode(schmidt.tickets[0]!.code!),
      orderId: schmidt.orderId,
      seat: 1,
      seats: 1,
      guestList: false,
    });

    const names = async (q: string) =>
      (await attendees(`?q=${encodeURIComponent(q)}`)).attendees.map((a) => a.ticketId);
    const muellers = mueller.tickets.map((t) => t.id);
    // Accents and the German spellings of umlauts do not count; the seat nobody was named
    // for is found by its buyer, as at the door.
    for (const q of ['muller', 'MUELLER', 'müller', 'Jürgen', 'jurg mul', 'JUERGEN MUELLER']) {
      expect((await names(q)).sort()).toEqual([...muellers].sort());
    }
    // Part of the address (the company's domain) or the whole address.
    expect((await names('reederei')).sort()).toEqual([...muellers].sort());
    expect((await names('J.Mueller@Reederei-Nord.example')).sort()).toEqual([...muellers].sort());
    // The shop's order number, with or without #.
    const number = (
      await store()
        .selectFrom('orders')
        .select('catalog_order_id')
        .where('id', '=', mueller.orderId)
        .executeTakeFirstOrThrow()
    ).catalog_order_id!;
    expect((await names(`#${number}`)).sort()).toEqual([...muellers].sort());
    // The short code in any case, with or without its dash.
    const code = mueller.tickets[1]!.code!;
    expect(await names(code.toLowerCase())).toEqual([mueller.tickets[1]!.id]);
    expect(await names(formatTicketCode(code))).toEqual([mueller.tickets[1]!.id]);
    expect(await names('niemand')).toEqual([]);
    expect(foldForSearch('Müller')).toBe('muller');

    // Pages: at most `limit` from `offset`, with the total.
    const page = await attendees('?limit=1&offset=1');
    expect(page).toMatchObject({ total: 3, offset: 1, limit: 1 });
    expect(page.attendees.map((a) => a.name)).toEqual(['Jürgen Müller']);

    for (const query of [
      '?limit=0',
      '?limit=501',
      '?limit=abc',
      '?offset=-1',
      `?q=${'x'.repeat(201)}`,
      '?q=a&q=b',
    ]) {
      const res = await organizer('GET', `/api/organizer/events/${EVENT}/attendees${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/limit|offset|Such|Tickets|ungültig|Zeichenkette|string/i);
    }
    for (const url of [
      '/api/organizer/events/abc/attendees',
      '/api/organizer/events/99999/attendees',
      '/api/organizer/events/1e3/attendees.csv',
    ]) {
      const res = await organizer('GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Dieses Event gibt es nicht.');
    }
    const anonymous = await organizer('GET', `/api/organizer/events/${EVENT}/attendees`, {
      cookie: null,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('rules "The organizer": the CSV is UTF-8 with BOM, ";"-separated, German headers, and a name that looks like a formula stays text', async () => {
    const bought = await buy([tier(REGULAR, 35, 2, 'Regulär')], {
      email: 'gast@example.org',
      name: 'Karla Kundin',
    });
    await store()
      .updateTable('tickets')
      .set({ holder: '=HYPERLINK("http://evil.example";"Klick")' })
      .where('id', '=', bought.tickets[1]!.id)
      .execute();

    // The bytes as a spreadsheet opens them (fetch's text() would drop the BOM).
    const res = await fetch(`${await app.getUrl()}/api/organizer/events/${EVENT}/attendees.csv`, {
      headers: { cookie, 'x-forwarded-for': freshIp() },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="gaesteliste-${EVENT}.csv"`,
    );
    expect(res.headers.get('cache-control')).toBe('no-store, private');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1));
    expect(rows[0]).toEqual([
      'Name',
      'Firma',
      'E-Mail',
      'Ticketart',
      'Status',
      'Eingecheckt am',
      'Eingecheckt um',
      'Gerät',
      'Ticket-Code',
      'Bestellnummer',
      'Platz',
      'Gästeliste',
    ]);
    expect(rows).toHaveLength(3);
    const karla = rows.find((r) => r[0] === 'Karla Kundin')!;
    expect(karla.slice(1, 5)).toEqual(['', 'gast@example.org', 'Regulär', 'Gültig']);
    expect(karla[8]).toBe(formatTicketCode(bought.tickets[0]!.code!));
    expect(karla[10]).toBe('1 von 2');
    // The formula is text: a spreadsheet shows it as typed and runs nothing.
    const formula = rows.find((r) => r[0]!.includes('HYPERLINK'))!;
    expect(formula[0]).toBe('\'=HYPERLINK("http://evil.example";"Klick")');

    // Every cell quoted, whatever separator a spreadsheet guesses; formulas as text.
    for (const [value, cell] of [
      ['=1+1', `"'=1+1"`],
      ['+49 40 123', `"'+49 40 123"`],
      ['-5', `"'-5"`],
      ['@SUM(A1)', `"'@SUM(A1)"`],
      ['  =1+1', `"'  =1+1"`],
      ['\t=1+1', `"'\t=1+1"`],
      ['＝1+1', `"'＝1+1"`],
      ['Müller; Co', '"Müller; Co"'],
      ['Müller, =HYPERLINK("x")', '"Müller, =HYPERLINK(""x"")"'],
      ['Er sagt "hallo"', '"Er sagt ""hallo"""'],
      ['Anna', '"Anna"'],
      ['', '""'],
    ]) {
      expect(csvCell(value!)).toBe(cell);
    }
  });

  it('rules "The organizer": a check-in by hand reaches the door\'s list as a scan would; the first check-in wins; undo takes back any check-in', async () => {
    const bought = await buy([tier(VIP, 49, 2, 'VIP')], {
      email: 'gast@example.org',
      name: 'Karla Kundin',
    });
    const [first, second] = bought.tickets;
    const url = (id: string) => `/api/organizer/events/${EVENT}/attendees/${id}/check-in`;

    // Only from the site's own pages.
    const foreign = await organizer('POST', url(first!.id), { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(FOREIGN_ORIGIN_MESSAGE);

    const res = await organizer('POST', url(first!.id));
    expect(res.statusCode).toBe(200);
    const { attendee } = attendeeAnswerSchema.parse(res.json());
    expect(attendee).toMatchObject({ status: 'checkedIn', device: ORGANIZER_DEVICE });
    expect(Date.now() - Date.parse(attendee.checkedInAt!)).toBeLessThan(10_000);
    // The door phones learn it with their next download of the list.
    expect(await doorTicket(first!.id)).toMatchObject({
      checkedInAt: attendee.checkedInAt,
      checkedInDevice: ORGANIZER_DEVICE,
    });
    // A second check-in keeps the first.
    const again = await organizer('POST', url(first!.id));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(
      /^Bereits eingecheckt am \d\d\.\d\d\.\d{4} um \d\d:\d\d Uhr \(Veranstalter\)\.$/,
    );

    // The door's scan of the other ticket; the organizer then takes it back.
    await store()
      .updateTable('tickets')
      .set({
        starts_at: new Date(Date.now() + 3_600_000).toISOString(),
        issued_at: Date.now() - 60_000,
      })
      .where('order_id', '=', bought.orderId)
      .execute();
    const scanned = await door('POST', '/api/checkin/scans', {
      scans: [
        {
          scanId: 'scan-1',
          code: second!.code,
          eventId: EVENT,
          scannedAt: Date.now(),
          device: 'Tür 1',
        },
      ],
    });
    expect(scanned.json().results[0].status).toBe('ok');
    const listed = (await attendees()).attendees.find((a) => a.ticketId === second!.id)!;
    expect(listed).toMatchObject({ status: 'checkedIn', device: 'Tür 1' });
    const undone = await organizer('DELETE', url(second!.id));
    expect(undone.statusCode).toBe(200);
    expect(attendeeAnswerSchema.parse(undone.json()).attendee).toMatchObject({
      status: 'valid',
      checkedInAt: null,
      device: null,
    });
    expect((await doorTicket(second!.id)).checkedInAt).toBeUndefined();
    // The same scan synced again adds nothing; a new scan at the door checks the guest in.
    await door('POST', '/api/checkin/scans', {
      scans: [
        {
          scanId: 'scan-1',
          code: second!.code,
          eventId: EVENT,
          scannedAt: Date.now(),
          device: 'Tür 1',
        },
      ],
    });
    expect((await doorTicket(second!.id)).checkedInAt).toBeUndefined();
    const rescan = await door('POST', '/api/checkin/scans', {
      scans: [
        {
          scanId: 'scan-2',
          code: second!.code,
          eventId: EVENT,
          scannedAt: Date.now(),
          device: 'Tür 2',
        },
      ],
    });
    expect(rescan.json().results[0].status).toBe('ok');
    // Undoing twice is no error; unknown tickets and ids are 404, never 500.
    expect((await organizer('DELETE', url(first!.id))).statusCode).toBe(200);
    expect((await organizer('DELETE', url(first!.id))).statusCode).toBe(200);
    for (const bad of ['tkt_unknown', 'x'.repeat(65), '%27%20OR%201%3D1']) {
      const res = await organizer('POST', url(bad));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Dieses Ticket gibt es bei diesem Event nicht.');
    }
    // A ticket of another event is not this event's.
    expect(
      (await organizer('POST', `/api/organizer/events/15/attendees/${first!.id}/check-in`))
        .statusCode,
    ).toBe(404);
  });

  it('rules "The organizer": a ticket\'s mail again through the outbox, rate-limited', async () => {
    const bought = await buy([tier(VIP, 49, 1, 'VIP')], {
      email: 'gast@example.org',
      name: 'Karla Kundin',
    });
    await settleOutbox(app);
    const mailsBefore = await store().selectFrom('mails').select('id').execute();
    const ip = freshIp();
    const url = `/api/organizer/events/${EVENT}/attendees/${bought.tickets[0]!.id}/resend`;
    const res = await organizer('POST', url, { ip });
    expect(res.statusCode).toBe(202);
    expect(attendeeAnswerSchema.parse(res.json()).attendee.email).toBe('gast@example.org');
    await settleOutbox(app);
    const mails = await store().selectFrom('mails').select(['id', 'to_address']).execute();
    expect(mails.length).toBe(mailsBefore.length + 1);
    expect(mails.map((m) => m.to_address)).toContain('gast@example.org');

    let limited = null;
    for (let i = 0; i < 12 && !limited; i += 1) {
      const next = await organizer('POST', url, { ip });
      if (next.statusCode === 429) limited = next;
      else expect(next.statusCode).toBe(202);
    }
    expect(limited?.json().message).toBe(RESEND_LIMIT_MESSAGE);
    expect(limited?.headers['retry-after']).toBeDefined();
  });

  it('rules "The organizer": a ticket passed on shows its new holder with company, is found by the company, and its mail goes again to the new holder', async () => {
    const bought = await buy([tier(REGULAR, 35, 2, 'Regulär')], {
      email: 'karla@example.org',
      name: 'Karla Kundin',
    });
    await settleOutbox(app);
    const passed = await inject(app, {
      method: 'POST',
      url: `/api/tickets/${bought.tokens[1]}/transfer`,
      headers: { 'x-forwarded-for': freshIp() },
      payload: { name: 'Mia Meyer', company: 'Elbwerk', email: 'mia@example.org' },
    });
    expect(passed.statusCode).toBe(200);
    const transferMails = () =>
      store()
        .selectFrom('mails')
        .select('to_address')
        .where('subject', 'like', 'Ein Ticket für dich%')
        .execute();
    await waitFor(async () => (await transferMails()).length === 1, 15_000);

    const found = await attendees('?q=elbwerk');
    expect(found.attendees).toHaveLength(1);
    expect(found.attendees[0]).toMatchObject({
      ticketId: bought.tickets[1]!.id,
      name: 'Mia Meyer',
      company: 'Elbwerk',
      email: 'mia@example.org',
      status: 'valid',
    });
    const csv = await organizer('GET', `/api/organizer/events/${EVENT}/attendees.csv`);
    expect(
      parseCsv(csv.body)
        .find((r) => r[0] === 'Mia Meyer')!
        .slice(1, 3),
    ).toEqual(['Elbwerk', 'mia@example.org']);

    const res = await organizer(
      'POST',
      `/api/organizer/events/${EVENT}/attendees/${bought.tickets[1]!.id}/resend`,
    );
    expect(res.statusCode).toBe(202);
    await waitFor(async () => (await transferMails()).length === 2, 15_000);
    expect((await transferMails()).map((m) => m.to_address)).toEqual([
      'mia@example.org',
      'mia@example.org',
    ]);
  });

  it('rules "The organizer": one ticket cancelled is a partial refund of its price after the coupon; that ticket is revoked, the others stay valid, the shop gets its refund', async () => {
    const bought = await buy(
      [tier(REGULAR, 35, 2, 'Regulär')],
      { email: 'gast@example.org', name: 'Karla Kundin' },
      { code: 'FEST5', discountType: 'fixed_cart', discount: 5 },
    );
    await handedOff(bought.orderId);
    const [seat1, seat2] = bought.tickets;
    const cancel = (id: string, payload: unknown, origin?: string) =>
      organizer('POST', `/api/organizer/events/${EVENT}/attendees/${id}/cancel`, {
        payload,
        ...(origin ? { origin } : {}),
      });

    expect((await cancel(seat1!.id, { scope: 'ticket' }, 'https://evil.example')).statusCode).toBe(
      403,
    );
    for (const body of [{}, { scope: 'alles' }, 'text']) {
      const res = await cancel(seat1!.id, body);
      expect(res.statusCode).toBe(400);
    }

    // 70 € less 5 € is 65 € for two: 32,50 € each.
    const res = await cancel(seat1!.id, { scope: 'ticket' });
    expect(res.statusCode).toBe(200);
    expect(attendeeCancelAnswerSchema.parse(res.json())).toEqual({
      refunded: 32.5,
      revoked: [seat1!.id],
    });
    const order = await store()
      .selectFrom('orders')
      .select(['status', 'refunded_amount'])
      .where('id', '=', bought.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ status: 'handedOff', refunded_amount: 3250 });
    const list = (await attendees()).attendees;
    expect(list.find((a) => a.ticketId === seat1!.id)).toMatchObject({
      status: 'revoked',
      code: null,
    });
    expect(list.find((a) => a.ticketId === seat2!.id)).toMatchObject({ status: 'valid' });
    // The shop records the refund with the ticket's line, one unit back in stock.
    await waitFor(
      () => shop.requests.some((r) => r.method === 'POST' && r.path.endsWith('/refunds')),
      10_000,
    );
    const refund = shop.requests.find((r) => r.method === 'POST' && r.path.endsWith('/refunds'))!;
    expect(refund.body).toMatchObject({ amount: '32.50', restock_items: true });

    // Cancelled once is enough.
    const again = await cancel(seat1!.id, { scope: 'ticket' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Dieses Ticket ist bereits storniert.');

    // The rest of the order: 32,50 € more, and every ticket is revoked.
    const whole = await cancel(seat2!.id, { scope: 'order' });
    expect(whole.statusCode).toBe(200);
    expect(attendeeCancelAnswerSchema.parse(whole.json())).toEqual({
      refunded: 32.5,
      revoked: [seat2!.id],
    });
    expect(
      await store()
        .selectFrom('orders')
        .select(['status', 'refunded_amount'])
        .where('id', '=', bought.orderId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'refunded', refunded_amount: 6500 });
    const nothingLeft = await cancel(seat2!.id, { scope: 'order' });
    expect(nothingLeft.statusCode).toBe(409);
  });

  it('rules "The organizer": a ticket of a sold-out tier cancelled goes back to the shop\'s stock and from there to the waiting list', async () => {
    const bought = await buy([tier(VIP, 49, 4, 'VIP')], {
      email: 'gast@example.org',
      name: 'Karla Kundin',
    });
    await handedOff(bought.orderId);
    await waitFor(() => shop.variations.find((v) => v.id === VIP)!.stock_quantity === 0, 10_000);
    const join = await inject(app, {
      method: 'POST',
      url: '/api/waitlist',
      headers: { 'x-forwarded-for': freshIp() },
      payload: {
        productId: EVENT,
        variationId: VIP,
        quantity: 1,
        email: 'wartend@example.org',
        consent: true,
      },
    });
    expect(join.statusCode).toBe(202);
    const entry = await store()
      .selectFrom('waitlist_entries')
      .select(['id', 'confirm_token'])
      .executeTakeFirstOrThrow();
    expect(
      (await inject(app, { method: 'POST', url: `/api/waitlist/confirm/${entry.confirm_token}` }))
        .statusCode,
    ).toBe(200);

    const res = await organizer(
      'POST',
      `/api/organizer/events/${EVENT}/attendees/${bought.tickets[2]!.id}/cancel`,
      { payload: { scope: 'ticket' } },
    );
    expect(attendeeCancelAnswerSchema.parse(res.json())).toEqual({
      refunded: 49,
      revoked: [bought.tickets[2]!.id],
    });
    await waitFor(() => shop.variations.find((v) => v.id === VIP)!.stock_quantity === 1, 10_000);
    await waitFor(async () => {
      const row = await store()
        .selectFrom('waitlist_entries')
        .select('status')
        .where('id', '=', entry.id)
        .executeTakeFirstOrThrow();
      return row.status === 'offered';
    }, 15_000);
  });

  it('rules "The organizer": a whole order cancelled is refunded in full; its tickets are revoked and the door says "Storniert"', async () => {
    const bought = await buy([tier(VIP, 49, 2, 'VIP')], {
      email: 'gast@example.org',
      name: 'Karla Kundin',
    });
    await handedOff(bought.orderId);
    const res = await organizer(
      'POST',
      `/api/organizer/events/${EVENT}/attendees/${bought.tickets[1]!.id}/cancel`,
      { payload: { scope: 'order' } },
    );
    expect(res.statusCode).toBe(200);
    expect(attendeeCancelAnswerSchema.parse(res.json())).toEqual({
      refunded: 98,
      revoked: bought.tickets.map((t) => t.id),
    });
    expect((await attendees()).attendees.map((a) => a.status)).toEqual(['revoked', 'revoked']);
    const list = await door('GET', `/api/checkin/events/${EVENT}/tickets`);
    expect((list.json().tickets as { status: string }[]).map((t) => t.status)).toEqual([
      'revoked',
      'revoked',
    ]);
    // The shop's refund puts both places back in stock.
    await waitFor(() => shop.variations.find((v) => v.id === VIP)!.stock_quantity === 4, 10_000);
    // A revoked ticket is not checked in by hand.
    const checkIn = await organizer(
      'POST',
      `/api/organizer/events/${EVENT}/attendees/${bought.tickets[0]!.id}/check-in`,
    );
    expect(checkIn.statusCode).toBe(409);
  });
});

describe('cancelling from the guest list with Stripe', () => {
  let db: { url: string; drop(): Promise<void> };
  let stripe: FakeStripe;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    stripe = await FakeStripe.start({ secretKey: STRIPE_KEY });
  });
  afterAll(async () => {
    await stripe.stop();
    await db.drop();
  });
  beforeEach(async () => {
    stripe.requests.length = 0;
    stripe.failWith = null;
    app = await createTestApp({
      databaseUrl: db.url,
      catalog: new FakeCatalog(),
      stripeApiBase: stripe.url,
      env: { ORGANIZER_CODE: 'Pp8h-Ab6x-Pzdp-5g4f' },
    });
    await resetStore(app);
  });
  afterEach(async () => {
    await settleOutbox(app).catch(() => undefined);
    await app.close();
  });

  it('rules "The organizer": one ticket is refunded at Stripe by its price, keyed; Stripe\'s own report of that refund changes nothing more; a refusal cancels nothing', async () => {
    const store = app.get(StoreDatabase).db;
    const res = await postCheckout(app, checkoutBody([line(101, 25, 2, 'Afterwork im Hafen')]));
    expect(res.statusCode).toBe(201);
    const sessionId: string = res.json().id;
    const { id: orderId } = await store
      .selectFrom('orders')
      .select('id')
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    await deliver(
      app,
      signedDelivery({
        id: 'evt_paid',
        type: 'checkout.session.completed',
        object: {
          id: sessionId,
          metadata: { order_id: orderId },
          payment_status: 'paid',
          payment_intent: 'pi_guest_list',
          customer_details: { email: 'gast@example.org', individual_name: 'Gast Muster' },
        },
      }),
    );
    const tickets = () =>
      store
        .selectFrom('tickets')
        .select(['id', 'status'])
        .where('order_id', '=', orderId)
        .orderBy('seat')
        .execute();
    await waitFor(async () => (await tickets()).length === 2);
    const [seat1, seat2] = await tickets();
    const signed = await inject(app, {
      method: 'POST',
      url: '/api/organizer/session',
      headers: { 'x-forwarded-for': freshIp(), origin: PUBLIC_URL },
      payload: { code: 'Pp8h-Ab6x-Pzdp-5g4f' },
    });
    const cookie = signed.headers['set-cookie']!.split(';')[0]!;
    const cancel = (ticketId: string) =>
      inject(app, {
        method: 'POST',
        url: `/api/organizer/events/101/attendees/${ticketId}/cancel`,
        headers: { cookie, origin: PUBLIC_URL, 'x-forwarded-for': freshIp() },
        payload: { scope: 'ticket' },
      });

    // Stripe refuses: nothing is revoked, the organizer is told in German.
    stripe.failWith = 400;
    const refused = await cancel(seat1!.id);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/^Der Zahlungsanbieter hat die Erstattung nicht/);
    expect((await tickets()).map((t) => t.status)).toEqual(['valid', 'valid']);

    stripe.failWith = null;
    const done = await cancel(seat1!.id);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ refunded: 25, revoked: [seat1!.id] });
    const [call] = stripe.requestsTo('/v1/refunds').filter((r) => r.form.amount);
    expect(call!.form).toMatchObject({ payment_intent: 'pi_guest_list', amount: '2500' });
    expect(call!.idempotencyKey).toBe(`organizer-ticket-${seat1!.id}`);

    // Stripe reports the same refund afterwards: the order knows it already.
    const refundId = (
      await store
        .selectFrom('orders')
        .select(['refund_reference', 'refunded_amount'])
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).refund_reference!;
    expect(refundId).toMatch(/^re_fake_/);
    const report = await deliver(
      app,
      signedDelivery({
        id: 'evt_refund_report',
        type: 'charge.refunded',
        object: {
          object: 'charge',
          id: 'ch_1',
          payment_intent: 'pi_guest_list',
          refunded: false,
          amount_refunded: 2500,
          refunds: { object: 'list', data: [{ id: refundId }] },
        },
      }),
    );
    expect(report.json().outcome).toBe('unchanged');
    expect(await tickets()).toEqual([
      { id: seat1!.id, status: 'revoked' },
      { id: seat2!.id, status: 'valid' },
    ]);
  });
});

/** A CSV as a spreadsheet reads it: `;` between cells, quoted cells with "" for a quote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
