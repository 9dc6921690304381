import { orderSummarySchema } from '@awhh/machines';
import { clientHeaders, createCheckout, eventually } from '../fault/support/backend-process.js';
import { startSite, type RunningSite } from '../support/site.js';

/**
 * The built `npm start` process as an attacker who got hold of its logs sees it: a whole
 * purchase (checkout, payment, the success page, the ticket page, its PDF, a resend) leaves
 * no ticket token, session id or e-mail address in any line; a day after the payment the
 * session id no longer opens the tickets either (backend/test/checkout/leaks.spec.ts).
 */

const BUYER = { email: 'leck.test+awhh@example.org', name: 'Lea Leck' };

let site: RunningSite;

beforeAll(async () => {
  site = await startSite({ LOG_LEVEL: 'info' });
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

interface EventInfo {
  id: number;
  name: string;
  price: number;
  startsAt: string | null;
  past?: boolean;
  availability: string;
  variants: { id: number; price: number; availability: string }[];
}

/** One seat of the first upcoming event with places, as the cart would send it. */
async function anEventLine() {
  const events = (await (await fetch(`${site.url}/api/events`)).json()) as EventInfo[];
  for (const event of events) {
    if (!event.startsAt || event.past || event.availability === 'sold_out') continue;
    if (event.variants.length === 0) {
      return { productId: event.id, name: event.name, amount: event.price, quantity: 1 };
    }
    const variant = event.variants.find((v) => v.availability !== 'sold_out');
    if (variant) {
      return {
        productId: event.id,
        variationId: variant.id,
        name: event.name,
        amount: variant.price,
        quantity: 1,
      };
    }
  }
  throw new Error('the demo catalog has no upcoming event with places');
}

it('a whole purchase leaves no token, session id or e-mail address in the logs', async () => {
  const created = await createCheckout(site.url, [await anEventLine()], { email: BUYER.email });
  expect(created.status).toBe(201);
  const { id: sessionId, url: payUrl } = (await created.json()) as { id: string; url: string };
  const paid = await fetch(`${payUrl}/pay`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(BUYER).toString(),
  });
  expect(paid.status).toBe(303);

  const order = await eventually(
    async () => {
      const res = await fetch(`${site.url}/api/checkout/session/${sessionId}`);
      const summary = orderSummarySchema.parse(await res.json());
      return summary.tickets.length > 0 ? summary : null;
    },
    20_000,
    'the paid order with its tickets',
  );
  expect(order.email).toBe(BUYER.email);
  const token = order.tickets[0]!.token;

  const visits = [
    `/success?session_id=${sessionId}`,
    `/tickets/${token}`,
    `/api/tickets/${token}`,
    `/api/tickets/${token}/pdf`,
    `/kontakt/${encodeURIComponent(BUYER.email)}`,
    `/api/events?email=${BUYER.email}`,
  ];
  for (const path of visits) {
    const res = await fetch(`${site.url}${path}`, { redirect: 'manual' });
    expect(res.status).toBeLessThan(500);
    await res.arrayBuffer();
  }
  const resend = await fetch(`${site.url}/api/tickets/resend`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...clientHeaders() },
    body: JSON.stringify({ email: BUYER.email }),
  });
  expect(resend.status).toBe(202);

  // The access log names every request (masked), the mails are logged as sent.
  await eventually(
    async () => site.logs().includes('tickets sent again'),
    20_000,
    'the resent tickets in the log',
  );
  const logs = site.logs();
  expect(logs).toContain('"url":"/tickets/[token]"');
  expect(logs).toContain('"url":"/api/tickets/[token]/pdf"');
  expect(logs).toContain('"url":"/success?session_id=[token]"');
  expect(logs).toContain('"url":"/api/events?email=[email]"');
  const payId = new URL(payUrl).pathname.split('/').pop()!;
  for (const secret of [token, sessionId, payId, BUYER.email, encodeURIComponent(BUYER.email)]) {
    expect(logs).not.toContain(secret);
  }
});
