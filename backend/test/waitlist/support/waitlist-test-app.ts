import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ParsedMail } from 'mailparser';
import { StoreDatabase } from '../../../src/store/store.database.js';
import { WaitlistPass } from '../../../src/waitlist/waitlist-pass.js';
import {
  buyerForm,
  checkoutBody,
  FakeCatalog,
  freshIp,
  inject,
  line,
  postCheckout,
  resetStore,
  waitFor,
} from '../../support/checkout-test-app.js';
import type { SmtpSink } from '../../../../tests/support/smtp-sink.js';

export const EVENT_ID = 101;
export const EVENT_NAME = 'Afterwork im Hafen';
export const PRICE = 25;

/** Event 101 with `stock` places, ten days ahead. */
export function waitlistCatalog(stock: number): FakeCatalog {
  const catalog = new FakeCatalog();
  const event = catalog.productById(EVENT_ID);
  event.stock_quantity = stock;
  event.meta_data = [
    { key: 'event_date', value: new Date(Date.now() + 10 * 86_400_000).toISOString() },
    { key: 'venue', value: 'Strandperle' },
  ];
  return catalog;
}

/** Every table the checkout and the waiting list write, emptied (the mails are jobs). */
export async function resetWaitlistStore(app: NestFastifyApplication): Promise<void> {
  const { db } = app.get(StoreDatabase);
  // The new app's waiting-list pass may offer a place to an entry left from before between
  // the two deletes (its offer then references the entry): delete again until both are empty.
  for (let attempt = 0; ; attempt++) {
    try {
      await db.deleteFrom('waitlist_offers').execute();
      await db.deleteFrom('waitlist_entries').execute();
      break;
    } catch (err) {
      if (attempt >= 5) throw err;
    }
  }
  await resetStore(app);
}

export function joinBody(email: string, quantity = 1, extra: Record<string, unknown> = {}) {
  return { productId: EVENT_ID, quantity, email, consent: true, ...extra };
}

export function join(app: NestFastifyApplication, body: unknown, ip = freshIp()) {
  return inject(app, {
    method: 'POST',
    url: '/api/waitlist',
    headers: { 'x-forwarded-for': ip },
    payload: body,
  });
}

/** The token of a waiting-list link in the mail's text. */
export function tokenIn(mail: ParsedMail, kind: 'confirm' | 'offer' | 'unsubscribe'): string {
  const match = new RegExp(`/waitlist/${kind}/([A-Za-z0-9_-]+)`).exec(mail.text ?? '');
  if (!match) throw new Error(`no ${kind} link in "${mail.subject}"`);
  return match[1]!;
}

export function mailsTo(smtp: SmtpSink, address: string, subject?: RegExp): ParsedMail[] {
  return smtp.mails.filter(
    (m) =>
      m.to !== undefined &&
      (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t.text.includes(address)) &&
      (!subject || subject.test(m.subject ?? '')),
  );
}

export async function nextMail(
  smtp: SmtpSink,
  address: string,
  subject: RegExp,
  timeoutMs = 10_000,
): Promise<ParsedMail> {
  await waitFor(() => mailsTo(smtp, address, subject).length > 0, timeoutMs);
  return mailsTo(smtp, address, subject).at(-1)!;
}

/** Joins and confirms through the confirmation mail, as a visitor would. */
export async function joinConfirmed(
  app: NestFastifyApplication,
  smtp: SmtpSink,
  email: string,
  quantity = 1,
): Promise<void> {
  expect((await join(app, joinBody(email, quantity))).statusCode).toBe(202);
  const mail = await nextMail(smtp, email, /bestätige/);
  const res = await inject(app, {
    method: 'POST',
    url: `/api/waitlist/confirm/${tokenIn(mail, 'confirm')}`,
  });
  expect(res.statusCode).toBe(200);
}

/** A checkout through the test provider that holds its places; returns its session id. */
export async function holdPlaces(
  app: NestFastifyApplication,
  quantity: number,
  extra: Record<string, unknown> = {},
) {
  const res = await postCheckout(app, checkoutBody([line(EVENT_ID, PRICE, quantity)], extra));
  return res;
}

/** The test provider's "Abbrechen": the order is canceled and its places released. */
export async function cancelCheckout(app: NestFastifyApplication, sessionId: string) {
  const res = await inject(app, {
    method: 'POST',
    url: `/api/checkout/test-provider/${sessionId}/cancel`,
  });
  expect(res.statusCode).toBe(303);
}

/** The test provider's "Jetzt bezahlen". */
export async function pay(app: NestFastifyApplication, sessionId: string) {
  const res = await inject(app, {
    method: 'POST',
    url: `/api/checkout/test-provider/${sessionId}/pay`,
    ...buyerForm({ email: 'nachruecker@example.org', name: 'Nina Nachrücker' }),
  });
  expect(res.statusCode).toBe(303);
}

export function pass(app: NestFastifyApplication): WaitlistPass {
  return app.get(WaitlistPass);
}
