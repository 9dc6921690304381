import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { type BackendProcess, startBackend } from '../support/backend.js';
import { SmtpSink } from '../support/smtp-sink.js';

/**
 * The waiting list's budget (a freed place must reach the next visitor while the evening
 * can still be booked): from a freed place (the payment page's "Abbrechen" on a checkout
 * that held the tier) to the offer mail handed to an SMTP server, p95 ≤ 5 s. The
 * demo catalog's VIP tier (4 places) is held, one waiting visitor joins and confirms, the
 * hold is canceled, and the clock runs until the offer mail arrives; the offer is then
 * declined, so the next round starts from four free places again.
 */

export interface WaitlistFigures {
  /** ms from the cancel sent to the offer mail accepted by the SMTP server, per round. */
  freedToOfferMail: number[];
}

export const WAITLIST_BUDGET_P95_MS = 5_000;

const ROUNDS = Number(process.env.BENCH_WAITLIST_ROUNDS ?? 20);
const EVENT = 109;
const VIP = 1093;

export async function measureWaitlist(dataDir: string): Promise<WaitlistFigures> {
  const smtp = await new SmtpSink().start();
  let proc: BackendProcess | null = null;
  try {
    proc = await startBackend({
      MODULES: 'checkout',
      DATABASE_URL: `sqlite:${join(dataDir, 'awhh-waitlist.db')}`,
      STATIC_DIR: 'off',
      LOG_LEVEL: 'error',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'After Work Hamburg <tickets@bench.test>',
    });
    const freedToOfferMail: number[] = [];
    for (let i = 0; i < ROUNDS + 1; i += 1) {
      const ms = await round(proc.url, smtp, i);
      // The first round warms up the process (catalog, SMTP connection).
      if (i > 0) freedToOfferMail.push(ms);
    }
    return { freedToOfferMail };
  } finally {
    await proc?.kill('SIGTERM');
    await smtp.stop();
  }
}

async function post(url: string, body: unknown, ip: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
}

async function mailTo(
  smtp: SmtpSink,
  email: string,
  subject: RegExp,
  after: number,
): Promise<ParsedMail> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = smtp.mails
      .slice(after)
      .find((m) => m.to && 'text' in m.to && m.to.text === email && subject.test(m.subject ?? ''));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail for ${email} within 30 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function token(mail: ParsedMail, kind: 'confirm' | 'offer'): string {
  const match = new RegExp(`/waitlist/${kind}/([A-Za-z0-9_-]+)`).exec(mail.text ?? '');
  if (!match) throw new Error(`no ${kind} link`);
  return match[1]!;
}

async function round(url: string, smtp: SmtpSink, i: number): Promise<number> {
  const ip = `10.9.${i >> 8}.${(i & 255) + 1}`;
  const held = await post(
    `${url}/api/checkout/session`,
    {
      line_items: [
        {
          productId: EVENT,
          variationId: VIP,
          name: 'VIP',
          amount: 49,
          quantity: 4,
          currency: 'eur',
        },
      ],
      success_url: `${url}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${url}/cart`,
      payment_method: 'card',
    },
    ip,
  );
  if (held.status !== 201)
    throw new Error(`checkout answered ${held.status}: ${await held.text()}`);
  const session = (await held.json()) as { id: string };
  const email = `warte${i}@example.org`;
  const before = smtp.mails.length;
  const joined = await post(
    `${url}/api/waitlist`,
    { productId: EVENT, variationId: VIP, quantity: 1, email, consent: true },
    ip,
  );
  if (joined.status !== 202) throw new Error(`join answered ${joined.status}`);
  const confirm = token(await mailTo(smtp, email, /bestätige/, before), 'confirm');
  await post(`${url}/api/waitlist/confirm/${confirm}`, {}, ip);

  const received = smtp.mails.length;
  const start = performance.now();
  const canceled = await fetch(`${url}/api/checkout/test-provider/${session.id}/cancel`, {
    method: 'POST',
    redirect: 'manual',
  });
  if (canceled.status !== 303) throw new Error(`cancel answered ${canceled.status}`);
  const offer = await mailTo(smtp, email, /Plätze frei/, received);
  const ms = performance.now() - start;
  await post(`${url}/api/waitlist/offers/${token(offer, 'offer')}/decline`, {}, ip);
  return ms;
}
