import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type BackendProcess, startBackend } from '../fault/support/backend-process.js';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { REPO_ROOT } from '../support/site.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { wooEvent } from '../support/woocommerce-fixtures.js';

/**
 * The ticket budgets (the buyer waits for the mail right after paying): from the paid
 * transition to the ticket mail handed to an SMTP server, for an order of 4 tickets
 * (p95 ≤ 2 s), and rendering one ticket's PDF (≤ 150 ms).
 */

export interface TicketFigures {
  /** ms from "Jetzt bezahlen" sent to the mail accepted by the SMTP server, per order. */
  paidToMail: number[];
  /** ms to render one ticket's PDF, per render. */
  pdf: number[];
}

const ORDERS = Number(process.env.BENCH_MAIL_ORDERS ?? 20);
const PDF_RENDERS = 30;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measureTickets(dataDir: string): Promise<TicketFigures> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    join(__dirname, 'pdf-render.mjs'),
    join(REPO_ROOT, 'backend', 'dist', 'tickets', 'ticket-pdf.js'),
    String(PDF_RENDERS),
  ]);
  const pdf = JSON.parse(stdout) as number[];

  const woo = new FakeWooCommerce({
    products: [wooEvent(1301, { price: '25.00', stock_quantity: 100_000 })],
  });
  const smtp = new SmtpSink();
  await Promise.all([woo.start(), smtp.start()]);
  let proc: BackendProcess | null = null;
  try {
    proc = await startBackend({
      ...woo.env,
      MODULES: 'checkout',
      DATABASE_URL: `sqlite:${join(dataDir, 'awhh-mail.db')}`,
      STATIC_DIR: '',
      LOG_LEVEL: 'error',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'After Work Hamburg <tickets@bench.test>',
    });
    const paidToMail: number[] = [];
    for (let i = 0; i < ORDERS + 1; i += 1) {
      const ms = await buyFourTickets(proc.url, smtp, i);
      // The first order warms up the process (catalog, PDF fonts, SMTP connection).
      if (i > 0) paidToMail.push(ms);
    }
    return { paidToMail, pdf };
  } finally {
    await proc?.kill('SIGTERM');
    await Promise.all([woo.stop(), smtp.stop()]);
  }
}

/** One order of 4 seats through the test provider; ms from the payment to the mail. */
async function buyFourTickets(url: string, smtp: SmtpSink, i: number): Promise<number> {
  const res = await fetch(`${url}/api/checkout/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.8.0.${i + 1}` },
    body: JSON.stringify({
      line_items: [
        { productId: 1301, name: 'Testevent 1301', amount: 25, quantity: 4, currency: 'eur' },
      ],
      success_url: `${url}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${url}/cart`,
      payment_method: 'card',
    }),
  });
  if (res.status !== 201) throw new Error(`checkout answered ${res.status}: ${await res.text()}`);
  const session = (await res.json()) as { url: string };
  const email = `bench${i}@example.org`;
  const received = smtp.mails.length;
  const start = performance.now();
  const paid = await fetch(`${session.url}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, name: 'Karla Kundin' }).toString(),
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`payment answered ${paid.status}`);
  const deadline = Date.now() + 30_000;
  while (!smtp.mails.slice(received).some((m) => m.to && 'text' in m.to && m.to.text === email)) {
    if (Date.now() > deadline) throw new Error(`no ticket mail for ${email} within 30 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = performance.now() - start;
  const mail = smtp.mails.find((m) => m.to && 'text' in m.to && m.to.text === email)!;
  const pdfs = mail.attachments.filter((a) => a.contentType === 'application/pdf').length;
  if (pdfs !== 4) throw new Error(`the mail for ${email} has ${pdfs} PDFs, not 4`);
  return ms;
}
