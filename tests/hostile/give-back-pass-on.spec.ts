import { join } from 'node:path';
import Database from 'better-sqlite3';
import { clientHeaders, createCheckout, eventually } from '../fault/support/backend-process.js';
import { linkIn, linkInMail, mailTo, newestMail } from '../support/mailbox.js';
import { startSite, type RunningSite } from '../support/site.js';

/**
 * "Give back, then pass on, then get paid twice": a buyer offers a ticket back to the
 * waiting list (rules "Giving a ticket back") and passes the same ticket on (rules "Named
 * tickets"), hoping to be refunded when somebody from the list buys the place and to be
 * paid by the friend who took the ticket, who would then stand at the door with a
 * cancelled one. Against the built `npm start` process, through HTTP: while its return is
 * open the ticket is not passed on (a German 409); once the return is taken back it can be,
 * and the earlier holder's link can no longer give it back; the place a waiting visitor
 * buys revokes only the ticket whose holder offered it; the friend keeps a valid ticket;
 * the buyer is refunded once, one ticket's price. The same two requests sent at the same
 * moment: exactly one of them wins.
 */

// The demo catalog's MS Hamburg evening and its VIP tier: four places at 49 €.
const EVENT = 109;
const VIP = 1093;
const PRICE_CENTS = 4900;
const KARLA = { email: 'karla@example.org', name: 'Karla Kundin' };
const FRIEND = { email: 'mia@example.org', name: 'Mia Schröder' };
const LATE_FRIEND = { email: 'jonas@example.org', name: 'Jonas Becker' };
const WAITING = ['warte-eins@example.org', 'warte-zwei@example.org'];
const RETURN_OPEN_TRANSFER =
  'Dieses Ticket ist zur Rückgabe an die Warteliste angeboten. Weitergeben lässt es sich erst, wenn du die Rückgabe zurücknimmst.';
const PASSED_ON =
  'Dieses Ticket wurde an eine andere Person weitergegeben. Dieser Link, sein QR-Code und sein Ticket-Code gelten nicht mehr.';

let site: RunningSite;
/** Karla's order: its session and its four tickets' tokens, in seat order. */
let order: { sessionId: string; tokens: string[] };

beforeAll(async () => {
  site = await startSite({ LOG_LEVEL: 'info' });
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

interface ApiError {
  statusCode: number;
  error: string;
  message: string;
}

function ticketId(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).t;
}

/** One read of the site's SQLite store, beside the running process. */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(site.dataDir, 'awhh.db'), { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** VIP places bought and paid on the test provider as `buyer`; the order's ticket tokens. */
async function buyVip(
  quantity: number,
  buyer: { email: string; name: string },
  extra: Record<string, unknown> = {},
): Promise<{ sessionId: string; tokens: string[] }> {
  const res = await createCheckout(
    site.url,
    [{ productId: EVENT, variationId: VIP, name: 'VIP', amount: 49, quantity }],
    { email: buyer.email, ...extra },
  );
  expect(res.status).toBe(201);
  const session = (await res.json()) as { id: string; url: string };
  const paid = await fetch(`${session.url}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...clientHeaders() },
    body: new URLSearchParams(buyer).toString(),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  const tokens = await eventually(
    async () => {
      const state = await fetch(`${site.url}/api/checkout/session/${session.id}`);
      const { tickets = [] } = (await state.json()) as { tickets?: { token: string }[] };
      return tickets.length === quantity ? tickets.map((t) => t.token) : null;
    },
    20_000,
    `the ${quantity} tickets of ${buyer.email}'s order`,
  );
  return { sessionId: session.id, tokens };
}

/** Joins VIP's waiting list and confirms the entry from its mail. */
async function joinWaitingList(email: string): Promise<void> {
  const joined = await fetch(`${site.url}/api/waitlist`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...clientHeaders() },
    body: JSON.stringify({ productId: EVENT, variationId: VIP, quantity: 1, email, consent: true }),
  });
  expect(joined.status).toBe(202);
  const confirm = linkIn(await mailTo(site.url, email, /bestätige/), 'confirm');
  const confirmed = await fetch(`${site.url}/api${confirm}`, {
    method: 'POST',
    headers: clientHeaders(),
  });
  expect(confirmed.ok).toBe(true);
}

/** The token of the newest offer ("Plätze frei") to `email`, once `count` have come. */
async function offerToken(email: string, count: number): Promise<string> {
  const text = await mailTo(site.url, email, /Plätze frei/, { count });
  return linkIn(text, 'offer').split('/').pop()!;
}

function giveBack(token: string, method: 'POST' | 'DELETE' = 'POST'): Promise<Response> {
  return fetch(`${site.url}/api/tickets/${encodeURIComponent(token)}/return`, {
    method,
    headers: clientHeaders(),
  });
}

function passOn(token: string, to: { email: string; name: string }): Promise<Response> {
  return fetch(`${site.url}/api/tickets/${encodeURIComponent(token)}/transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...clientHeaders() },
    body: JSON.stringify({ name: to.name, email: to.email }),
  });
}

async function ticket(
  token: string,
): Promise<{ status: number; ticketStatus?: string; holder?: string | null }> {
  const res = await fetch(`${site.url}/api/tickets/${encodeURIComponent(token)}`);
  if (!res.ok) return { status: res.status };
  const body = (await res.json()) as { status: string; holder: string | null };
  return { status: res.status, ticketStatus: body.status, holder: body.holder };
}

async function returnState(token: string): Promise<{ state: string; refunded?: boolean }> {
  const res = await fetch(`${site.url}/api/tickets/${encodeURIComponent(token)}/return`);
  return (await res.json()) as { state: string; refunded?: boolean };
}

/** What the store counts as refunded for Karla's order, and how. */
function refunds() {
  const [row] = query<{ id: string; status: string; refunded_amount: number }>(
    'select id, status, refunded_amount from orders where session_id = ?',
    order.sessionId,
  );
  const returns = query<{
    ticket_id: string;
    status: string;
    generation: number;
    refund_reference: string | null;
  }>(
    'select ticket_id, status, generation, refund_reference from ticket_returns where order_id = ? order by created_at',
    row!.id,
  );
  const jobs = query<{ key: string; done_at: number | null }>(
    "select key, done_at from jobs where name = 'ticket-return-refund' and subject = ?",
    row!.id,
  );
  return { order: row!, returns, jobs };
}

describe('give back, then pass on, then get paid twice (rules "Giving a ticket back", "Named tickets")', () => {
  it('an open return refuses the transfer in German; taken back, the ticket passes on; the place bought revokes only the ticket that offered it, and the buyer is refunded once', async () => {
    // Karla takes all four VIP places; two visitors wait for one each.
    order = await buyVip(4, KARLA);
    for (const email of WAITING) await joinWaitingList(email);
    const [first, second, third, fourth] = order.tokens as [string, string, string, string];

    // Offered back: the place goes to the first in line; the ticket still admits.
    const offered = await giveBack(first);
    expect(offered.status).toBe(200);
    expect(((await offered.json()) as { state: string }).state).toBe('offered');
    await offerToken(WAITING[0]!, 1);

    // Passing it on now is refused, in German, and changes nothing.
    const refused = await passOn(first, FRIEND);
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as ApiError;
    expect(body).toEqual({ statusCode: 409, error: 'Conflict', message: RETURN_OPEN_TRANSFER });
    expect(await ticket(first)).toMatchObject({ status: 200, ticketStatus: 'valid' });
    expect((await returnState(first)).state).toBe('offered');
    const mails = (await (await fetch(`${site.url}/api/mail-test/messages`)).json()) as {
      to: string;
    }[];
    expect(mails.filter((m) => m.to.includes(FRIEND.email))).toEqual([]);

    // Taken back, the ticket can be passed on: the friend gets a ticket of their own.
    const withdrawn = await giveBack(first, 'DELETE');
    expect(withdrawn.status).toBe(200);
    const passed = await passOn(first, FRIEND);
    expect(passed.status).toBe(200);
    const friendToken = await linkInMail(site.url, FRIEND.email, 'Ein Ticket für dich');
    expect(ticketId(friendToken)).toBe(ticketId(first));
    expect(await ticket(friendToken)).toMatchObject({ ticketStatus: 'valid', holder: FRIEND.name });

    // Karla's old link can neither give the ticket back nor pass it on again.
    const late = await giveBack(first);
    expect(late.status).toBe(410);
    expect(((await late.json()) as ApiError).message).toBe(PASSED_ON);
    expect((await passOn(first, LATE_FRIEND)).status).toBe(410);
    // The offer made from the withdrawn return buys nothing: its place went back to Karla.
    const staleOffer = await offerToken(WAITING[0]!, 1);
    const stale = await createCheckout(
      site.url,
      [{ productId: EVENT, variationId: VIP, name: 'VIP', amount: 49, quantity: 1 }],
      { email: WAITING[0], waitlist_offer: staleOffer },
    );
    expect(stale.status).toBe(409);

    // Karla gives another ticket back; the first in line buys that place.
    expect((await giveBack(second)).status).toBe(200);
    const offer = await offerToken(WAITING[0]!, 2);
    expect(offer).not.toBe(staleOffer);
    await buyVip(1, { email: WAITING[0]!, name: 'Warte Eins' }, { waitlist_offer: offer });
    await eventually(
      async () => (await returnState(second)).refunded === true,
      20_000,
      'the returned ticket refunded',
    );

    // Only the ticket whose holder offered it stopped admitting.
    expect(await ticket(second)).toMatchObject({ ticketStatus: 'revoked' });
    expect(await ticket(friendToken)).toMatchObject({ ticketStatus: 'valid', holder: FRIEND.name });
    expect(await ticket(third)).toMatchObject({ ticketStatus: 'valid' });
    expect(await ticket(fourth)).toMatchObject({ ticketStatus: 'valid' });
    // Karla is told once that the place found a guest and her money goes back.
    await newestMail(
      site.url,
      (m) => m.to.includes(KARLA.email) && m.subject.startsWith('Ticket zurückgegeben'),
      { what: 'the return mail', only: true },
    );

    // Refunded once: one ticket's price, one refund job, one return with a refund.
    const { order: stored, returns, jobs } = refunds();
    expect(stored.refunded_amount).toBe(PRICE_CENTS);
    expect(jobs).toHaveLength(1);
    expect(
      returns.map((r) => [r.ticket_id, r.status, r.generation, r.refund_reference !== null]),
    ).toEqual([
      [ticketId(first), 'withdrawn', 0, false],
      [ticketId(second), 'refunded', 0, true],
    ]);
    // The friend was told of the ticket passed on, and of nothing cancelled.
    const friendMails = (await (await fetch(`${site.url}/api/mail-test/messages`)).json()) as {
      to: string;
      subject: string;
    }[];
    expect(friendMails.filter((m) => m.to.includes(FRIEND.email)).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Ein Ticket für dich/),
    ]);
  });

  it('giving back and passing on the same ticket at the same moment: exactly one wins, and no return is left on a ticket passed on', async () => {
    const [, , third, fourth] = order.tokens as [string, string, string, string];
    // Sold out again (the waiting visitor bought the returned place); one more visitor
    // waits, so a return has somebody to go to whoever else holds an offer by now.
    await joinWaitingList('warte-drei@example.org');
    // Each request sent first once; whichever wins, the other is refused inside the same
    // locked write, and the outcome's invariants hold.
    for (const [token, to, returnFirst] of [
      [third, LATE_FRIEND, true],
      [fourth, { email: 'finn@example.org', name: 'Finn Hansen' }, false],
    ] as const) {
      expect((await returnState(token)).state).toBe('available');
      const [offered, passed]: [Response, Response] = returnFirst
        ? await Promise.all([giveBack(token), passOn(token, to)])
        : await Promise.all([passOn(token, to), giveBack(token)]).then(([p, o]) => [o, p]);
      const won = [offered.status === 200, passed.status === 200];
      expect(won.filter(Boolean)).toHaveLength(1);
      const id = ticketId(token);
      const live = query<{ status: string; generation: number }>(
        "select status, generation from ticket_returns where ticket_id = ? and status in ('offered', 'taken', 'refunded')",
        id,
      );
      const [stored] = query<{ generation: number; status: string }>(
        'select generation, status from tickets where id = ?',
        id,
      );
      if (passed.status === 200) {
        // Passed on: the return was refused, and none is open on the new holder's ticket.
        expect([409, 410]).toContain(offered.status);
        expect(live).toEqual([]);
        expect(stored).toEqual({ generation: 1, status: 'valid' });
      } else {
        // Offered back: the transfer was refused in German and the ticket kept its holder.
        expect(passed.status).toBe(409);
        expect(((await passed.json()) as ApiError).message).toBe(RETURN_OPEN_TRANSFER);
        expect(live).toEqual([{ status: 'offered', generation: 0 }]);
        expect(stored).toEqual({ generation: 0, status: 'valid' });
        // Taken back, so the next round starts from a ticket without a return.
        expect((await giveBack(token, 'DELETE')).status).toBe(200);
      }
    }
    // Still refunded once, the one ticket's price.
    const { order: stored, jobs } = refunds();
    expect(stored.refunded_amount).toBe(PRICE_CENTS);
    expect(jobs).toHaveLength(1);
    expect(site.logs().match(/returned ticket refunded/g) ?? []).toHaveLength(1);
  });
});
