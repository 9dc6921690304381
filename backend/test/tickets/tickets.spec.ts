import { generateKeyPairSync } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  formatTicketCode,
  ticketSchema,
  mailMessageSchema,
  mailSummarySchema,
  orderSummarySchema,
} from '@awhh/machines';
import { compactVerify, importJWK } from 'jose';
import jsQRModule from 'jsqr';
import { OrderService } from '../../src/orders/order.service.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { OrderRepository } from '../../src/orders/orders.port.js';
import { renderTicketsPdf, ticketQr } from '../../src/tickets/ticket-pdf.js';
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
import { SmtpSink } from '../../../tests/support/smtp-sink.js';

// jsqr's types declare an ES default export; the package is CommonJS exporting the function.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

jest.setTimeout(120_000);

const EVENT_START = '2026-12-05T18:00:00.000Z';

/** Event 101 with a date and a venue; 102 and 103 are merch. */
function ticketCatalog(): FakeCatalog {
  const catalog = new FakeCatalog();
  catalog.productById(101).meta_data = [
    { key: 'event_date', value: EVENT_START },
    { key: 'venue', value: 'Strandperle' },
  ];
  return catalog;
}

/** Pages in a PDF: its page objects (PDFKit writes the dictionaries uncompressed). */
function pageCount(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;
}

/** The QR code as the PDF draws it, rasterised (4 px a module, quiet zone) and read back. */
function decodeQr(token: string): string | null {
  const qr = ticketQr(token);
  const scale = 4;
  const side = (qr.size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const mx = Math.floor(x / scale) - 4;
      const my = Math.floor(y / scale) - 4;
      if (mx >= 0 && my >= 0 && mx < qr.size && my < qr.size && qr.dark(mx, my)) {
        const i = (y * side + x) * 4;
        pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
      }
    }
  }
  return jsQR(pixels, side, side)?.data ?? null;
}

describe.each(API_DATABASES)('tickets (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication | null = null;
  let smtp: SmtpSink | null = null;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  afterEach(async () => {
    if (app) await settleOutbox(app).catch(() => undefined);
    await app?.close();
    app = null;
    await smtp?.stop();
    smtp = null;
  });

  async function start(env: NodeJS.ProcessEnv = {}, catalog = ticketCatalog()) {
    app = await createTestApp({ databaseUrl: db.url, catalog, env });
    await resetStore(app);
    return app;
  }

  async function startWithSmtp(rejectFirst = 0) {
    smtp = await new SmtpSink().start();
    smtp.rejectNext = rejectFirst;
    return start({ SMTP_URL: smtp.url, MAIL_FROM: 'After Work Hamburg <tickets@shop.test>' });
  }

  /** Buys through the test provider's page; returns the session id and its page path. */
  async function buy(
    target: NestFastifyApplication,
    lines = [line(101, 25, 3), line(102, 12.5, 1)],
    buyer = { email: 'karla@example.org', name: 'Karla Kundin' },
  ) {
    const res = await postCheckout(target, checkoutBody(lines));
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json() as { id: string; url: string };
    const path = `${new URL(url).pathname}/pay`;
    const paid = await inject(target, { method: 'POST', url: path, ...buyerForm(buyer) });
    expect(paid.statusCode).toBe(303);
    return { sessionId: id, payPath: path };
  }

  async function summary(target: NestFastifyApplication, sessionId: string) {
    const res = await inject(target, { method: 'GET', url: `/api/checkout/session/${sessionId}` });
    expect(res.statusCode).toBe(200);
    return orderSummarySchema.parse(res.json());
  }

  async function ticketRows(target: NestFastifyApplication) {
    return target.get(StoreDatabase).db.selectFrom('tickets').selectAll().execute();
  }

  it('one ticket per event seat, none for merch, issued once however often the payment arrives', async () => {
    const target = await start();
    const { sessionId, payPath } = await buy(target);
    const order = await summary(target, sessionId);
    expect(order.status).toBe('paid');
    expect(order.tickets).toHaveLength(3);
    expect(order.tickets.map((t) => [t.seat, t.seats, t.eventName, t.status])).toEqual([
      [1, 3, 'Afterwork im Hafen', 'valid'],
      [2, 3, 'Afterwork im Hafen', 'valid'],
      [3, 3, 'Afterwork im Hafen', 'valid'],
    ]);

    // The provider delivers the payment again, and reconciliation asks once more.
    await inject(target, { method: 'POST', url: payPath, ...buyerForm() });
    const stored = await target.get(OrderRepository).find({ sessionId });
    await target.get(OrderService).reconcile(stored!);
    const rows = await ticketRows(target);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.event_id === 101)).toBe(true);
    // rules "Named tickets": the buyer holds the first seat; the others wait for a name.
    expect(rows.map((r) => [r.seat, r.holder]).sort()).toEqual([
      [1, 'Karla Kundin'],
      [2, null],
      [3, null],
    ]);
    expect(rows[0]).toMatchObject({ starts_at: EVENT_START, venue: 'Strandperle', tier: null });
    expect((await summary(target, sessionId)).tickets).toHaveLength(3);
  });

  it('a free order is paid at creation and issues its tickets too', async () => {
    const target = await start();
    const res = await postCheckout(
      target,
      checkoutBody([line(101, 25, 2)], {
        coupon: { code: 'GRATIS', discountType: 'percent', discount: 100 },
        email: 'frei@example.org',
      }),
    );
    expect(res.statusCode).toBe(201);
    const order = await summary(target, res.json().id);
    expect(order.tickets.map((t) => t.seat)).toEqual([1, 2]);
  });

  it('the token round trip: the ticket by its token; an altered or forged token is a German 404', async () => {
    const target = await start();
    const { sessionId } = await buy(target);
    const [link] = (await summary(target, sessionId)).tickets;
    const res = await inject(target, { method: 'GET', url: `/api/tickets/${link!.token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    const ticket = ticketSchema.parse(res.json());
    expect(ticket).toMatchObject({
      token: link!.token,
      status: 'valid',
      eventId: 101,
      eventName: 'Afterwork im Hafen',
      eventSlug: 'afterwork-im-hafen',
      startsAt: EVENT_START,
      venue: 'Strandperle',
      seat: 1,
      seats: 3,
      holder: 'Karla Kundin',
    });
    // Small enough for a QR code read from a screen (rules "Tickets and the door").
    expect(link!.token.length).toBeLessThan(200);

    const [header, payload, signature] = link!.token.split('.');
    const otherSeat = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), s: 2 }),
    ).toString('base64url');
    const { privateKey } = generateKeyPairSync('ed25519');
    const { CompactSign } = await import('jose');
    const forged = await new CompactSign(Buffer.from(payload!, 'base64url'))
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(privateKey);
    for (const bad of [
      `${header}.${otherSeat}.${signature}`,
      // The signature's first character carries six whole bits (its last one only two,
      // so changing that one may decode to the same bytes).
      `${header}.${payload}.${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`,
      forged,
      'kein-ticket',
    ]) {
      const refused = await inject(target, { method: 'GET', url: `/api/tickets/${bad}` });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(
        'Dieses Ticket kennen wir nicht. Bitte prüfe den Link aus deiner Bestätigungsmail.',
      );
    }
  });

  it('the public key (JWK) verifies a ticket token with jose, as the door does', async () => {
    const target = await start();
    const { sessionId } = await buy(target);
    const [link] = (await summary(target, sessionId)).tickets;
    const res = await inject(target, { method: 'GET', url: '/api/tickets/public-key' });
    expect(res.statusCode).toBe(200);
    const jwk = res.json();
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    expect(jwk.d).toBeUndefined();
    const { payload } = await compactVerify(link!.token, await importJWK(jwk, 'EdDSA'));
    const claims = JSON.parse(new TextDecoder().decode(payload));
    expect(claims).toMatchObject({ e: 101, s: 1 });
    expect(typeof claims.t).toBe('string');
  });

  it('the embedded key is generated once and shared by every process on the store', async () => {
    const first = await start();
    const second = await createTestApp({ databaseUrl: db.url, catalog: ticketCatalog() });
    try {
      const a = (await inject(first, { method: 'GET', url: '/api/tickets/public-key' })).json();
      const b = (await inject(second, { method: 'GET', url: '/api/tickets/public-key' })).json();
      expect(a).toEqual(b);
    } finally {
      await second.close();
    }
  });

  it('TICKET_SIGNING_KEY signs the tickets when set', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const target = await start({ TICKET_SIGNING_KEY: pem });
    const jwk = (await inject(target, { method: 'GET', url: '/api/tickets/public-key' })).json();
    expect(jwk.x).toBe(publicKey.export({ format: 'jwk' }).x);
  });

  it('the PDF: one page per ticket, inline, and its QR code decodes back to the token', async () => {
    const target = await start();
    const { sessionId } = await buy(target);
    const { tickets } = await summary(target, sessionId);
    const res = await fetch(`${await target.getUrl()}/api/tickets/${tickets[1]!.token}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      'inline; filename="ticket-afterwork-im-hafen-2.pdf"',
    );
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pageCount(pdf)).toBe(1);
    expect(decodeQr(tickets[1]!.token)).toBe(tickets[1]!.token);

    const full = await Promise.all(
      tickets.map(async (t) => ({
        ticket: ticketSchema.parse(
          (await inject(target, { method: 'GET', url: `/api/tickets/${t.token}` })).json(),
        ),
        orderNumber: null,
      })),
    );
    expect(pageCount(await renderTicketsPdf(full))).toBe(3);
  });

  it('a refund revokes: the test provider\'s "Zahlung erstatten" refunds in full, the tickets say "revoked", the PDF has no QR code', async () => {
    const target = await start();
    const { sessionId, payPath } = await buy(target);
    // rules "Tickets and the door": a refunded order's tickets are revoked.
    const { tickets } = await summary(target, sessionId);
    expect(tickets.map((t) => t.status)).toEqual(['valid', 'valid', 'valid']);
    const pagePath = payPath.replace(/\/pay$/, '');
    expect((await inject(target, { method: 'GET', url: pagePath })).body).toContain(
      'Zahlung erstatten (Testmodus)',
    );
    const refund = await inject(target, { method: 'POST', url: `${pagePath}/refund` });
    expect(refund.statusCode).toBe(303);
    expect(refund.headers.location).toBe(pagePath);
    expect((await inject(target, { method: 'GET', url: pagePath })).body).toContain(
      'Diese Zahlung wurde erstattet',
    );
    // Twice is once.
    expect((await inject(target, { method: 'POST', url: `${pagePath}/refund` })).statusCode).toBe(
      303,
    );
    const raw = await inject(target, { method: 'GET', url: `/api/checkout/session/${sessionId}` });
    expect(raw.json()).toMatchObject({ status: 'canceled', refunded: true });
    expect((await ticketRows(target)).map((t) => t.status)).toEqual([
      'revoked',
      'revoked',
      'revoked',
    ]);
    for (const { token } of tickets) {
      const ticket = (await inject(target, { method: 'GET', url: `/api/tickets/${token}` })).json();
      expect(ticket.status).toBe('revoked');
    }
    const pdf = await fetch(`${await target.getUrl()}/api/tickets/${tickets[0]!.token}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pageCount(Buffer.from(await pdf.arrayBuffer()))).toBe(1);
  });

  it('a chargeback on the test provider\'s page revokes the tickets while disputed; "Zahlungsstreit gewonnen" restores them', async () => {
    const target = await start();
    const { sessionId, payPath } = await buy(target);
    const { tickets } = await summary(target, sessionId);
    const pagePath = payPath.replace(/\/pay$/, '');
    const statuses = async () =>
      Promise.all(
        tickets.map(
          async ({ token }) =>
            (await inject(target, { method: 'GET', url: `/api/tickets/${token}` })).json().status,
        ),
      );
    expect((await inject(target, { method: 'GET', url: pagePath })).body).toContain(
      'Zahlungsstreit eröffnen (Testmodus)',
    );
    const opened = await inject(target, { method: 'POST', url: `${pagePath}/dispute` });
    expect(opened.statusCode).toBe(303);
    const disputedPage = (await inject(target, { method: 'GET', url: pagePath })).body;
    expect(disputedPage).toContain('Zahlungsstreit');
    expect(disputedPage).toContain('Zahlungsstreit gewonnen (Testmodus)');
    // The bank holds the money: no refund while the dispute is open.
    expect(disputedPage).not.toContain('Zahlung erstatten');
    expect(await statuses()).toEqual(['revoked', 'revoked', 'revoked']);

    expect(
      (await inject(target, { method: 'POST', url: `${pagePath}/dispute/won` })).statusCode,
    ).toBe(303);
    expect(await statuses()).toEqual(['valid', 'valid', 'valid']);
    expect((await inject(target, { method: 'GET', url: pagePath })).body).toContain(
      'Diese Bestellung ist bereits bezahlt.',
    );
  });

  it('the mail reaches a real SMTP server: German, HTML and text, a PDF per ticket, one .ics, the ticket links', async () => {
    const target = await startWithSmtp();
    const { sessionId } = await buy(target, [line(101, 25, 2), line(102, 12.5, 1)]);
    await waitFor(() => smtp!.mails.length === 1, 10_000);
    const mail = smtp!.mails[0]!;
    expect(mail.subject).toBe('Deine Tickets für „Afterwork im Hafen“');
    expect(mail.from?.value).toEqual([
      { name: 'After Work Hamburg', address: 'tickets@shop.test' },
    ]);
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('karla@example.org');
    expect(mail.html).toContain('Hallo Karla Kundin,');
    expect(mail.text).toContain('danke für deine Bestellung!');
    // rules "Named tickets": an order of several tickets asks who comes.
    expect(mail.text).toContain('Wer kommt? Trag auf jeder Ticketseite ein');
    expect(mail.html).toContain('Wer kommt? Trag auf jeder Ticketseite ein');
    expect(mail.text).toContain('2 × Afterwork im Hafen: 50,00');
    expect(mail.text).toContain('Gesamt: 62,50');
    const pdfs = mail.attachments.filter((a) => a.contentType === 'application/pdf');
    const calendars = mail.attachments.filter((a) => a.contentType === 'text/calendar');
    expect(pdfs).toHaveLength(2);
    expect(pdfs.map((a) => pageCount(a.content))).toEqual([1, 1]);
    expect(calendars).toHaveLength(1);
    expect(calendars[0]!.content.toString()).toContain('SUMMARY:Afterwork im Hafen');
    const { tickets } = await summary(target, sessionId);
    for (const t of tickets) {
      expect(mail.text).toContain(`${PUBLIC_URL}/tickets/${t.token}`);
      expect(mail.html).toContain(`${PUBLIC_URL}/tickets/${t.token}`);
      // rules "Tickets and the door": each ticket's short code, for when the QR code will not scan.
      const { code } = (
        await inject(target, { method: 'GET', url: `/api/tickets/${t.token}` })
      ).json();
      expect(mail.text).toContain(`Ticket-Code: ${formatTicketCode(code)}`);
      expect(mail.html).toContain(`>${formatTicketCode(code)}</span>`);
    }
    // The embedded mailbox is closed while real mail runs.
    expect((await summary(target, sessionId)).mailboxUrl).toBeNull();
    expect(
      (await inject(target, { method: 'GET', url: '/api/mail-test/messages' })).statusCode,
    ).toBe(404);
  });

  it('SMTP refusing for a while: the mail is retried later and sent exactly once', async () => {
    const target = await startWithSmtp(2);
    const { payPath } = await buy(target);
    await waitFor(() => smtp!.mails.length === 1, 15_000);
    expect(smtp!.rejected).toBe(2);
    // The payment arrives again: no second mail.
    await inject(target, { method: 'POST', url: payPath, ...buyerForm() });
    await settleOutbox(target);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp!.mails).toHaveLength(1);
    const job = await target
      .get(StoreDatabase)
      .db.selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'ticket-mail')
      .executeTakeFirstOrThrow();
    expect(job.attempts).toBe(3);
    expect(job.done_at).not.toBeNull();
  });

  it('SMTP down: nothing is lost, the mail goes out once the server is back', async () => {
    // A port nobody listens on, then the server comes up on another: the job keeps waiting.
    smtp = new SmtpSink();
    const target = await start({ SMTP_URL: 'smtp://127.0.0.1:9' });
    await buy(target);
    const db0 = target.get(StoreDatabase).db;
    await waitFor(async () => {
      const job = await db0
        .selectFrom('jobs')
        .selectAll()
        .where('name', '=', 'ticket-mail')
        .executeTakeFirst();
      return (job?.attempts ?? 0) >= 2;
    });
    const job = await db0
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'ticket-mail')
      .executeTakeFirstOrThrow();
    expect(job.done_at).toBeNull();
    expect(job.last_error).toBeTruthy();
    await target.close();
    app = null;
    await smtp.start();
    app = await createTestApp({
      databaseUrl: db.url,
      catalog: ticketCatalog(),
      env: { SMTP_URL: smtp.url },
    });
    await waitFor(() => smtp!.mails.length === 1, 10_000);
  });

  it('resend: 202 for any address; a known one gets its valid tickets again', async () => {
    const target = await startWithSmtp();
    await buy(target);
    await waitFor(() => smtp!.mails.length === 1, 10_000);
    const unknown = await inject(target, {
      method: 'POST',
      url: '/api/tickets/resend',
      headers: { 'x-forwarded-for': freshIp() },
      payload: { email: 'niemand@example.org' },
    });
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual({});
    const known = await inject(target, {
      method: 'POST',
      url: '/api/tickets/resend',
      headers: { 'x-forwarded-for': freshIp() },
      payload: { email: 'KARLA@example.org' },
    });
    expect(known.statusCode).toBe(202);
    expect(known.json()).toEqual({});
    await waitFor(() => smtp!.mails.length === 2, 10_000);
    const again = smtp!.mails[1]!;
    expect(again.subject).toBe('Deine Tickets von After Work Hamburg');
    expect(again.attachments.filter((a) => a.contentType === 'application/pdf')).toHaveLength(3);
    await settleOutbox(target);
    expect(smtp!.mails).toHaveLength(2);
    // Asked again later: the finished resend runs once more.
    const later = await inject(target, {
      method: 'POST',
      url: '/api/tickets/resend',
      headers: { 'x-forwarded-for': freshIp() },
      payload: { email: 'karla@example.org' },
    });
    expect(later.statusCode).toBe(202);
    await waitFor(() => smtp!.mails.length === 3, 10_000);
  });

  it('resend is rate-limited per address of the client', async () => {
    const target = await start();
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await inject(target, {
        method: 'POST',
        url: '/api/tickets/resend',
        headers: { 'x-forwarded-for': ip },
        payload: { email: 'niemand@example.org' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('embedded defaults: the mail lands in the test mailbox, with its attachments', async () => {
    const target = await start();
    const { sessionId } = await buy(target, [line(101, 25, 2)]);
    const order = await summary(target, sessionId);
    expect(order.mailboxUrl).toBe('/mail-test');
    let list: unknown[] = [];
    await waitFor(async () => {
      list = (await inject(target, { method: 'GET', url: '/api/mail-test/messages' })).json();
      return list.length === 1;
    });
    const [entry] = list.map((m) => mailSummarySchema.parse(m));
    expect(entry).toMatchObject({
      to: 'karla@example.org',
      subject: 'Deine Tickets für „Afterwork im Hafen“',
    });
    expect(entry!.attachments.map((a) => a.contentType)).toEqual([
      'application/pdf',
      'application/pdf',
      'text/calendar; charset=utf-8',
    ]);
    const message = mailMessageSchema.parse(
      (await inject(target, { method: 'GET', url: `/api/mail-test/messages/${entry!.id}` })).json(),
    );
    expect(message.from).toBe('After Work Hamburg <tickets@localhost>');
    expect(message.html).toContain(`/tickets/${order.tickets[0]!.token}`);
    const file = await fetch(
      `${await target.getUrl()}/api/mail-test/messages/${entry!.id}/attachments/0`,
    );
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(pageCount(Buffer.from(await file.arrayBuffer()))).toBe(1);
    const missing = await inject(target, {
      method: 'GET',
      url: `/api/mail-test/messages/${entry!.id}/attachments/9`,
    });
    expect(missing.statusCode).toBe(404);
  });
});
