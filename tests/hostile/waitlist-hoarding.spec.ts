import { createCheckout } from '../fault/support/backend-process.js';
import { startSite, type RunningSite } from '../support/site.js';

/**
 * The waiting list as a hoarder would use it: joining a tier that still had places, with
 * addresses of a catch-all domain, used to be accepted, and the offer pass then reserved the
 * places for each confirmed entry for WAITLIST_OFFER_HOURS (24 h), a whole evening for a day.
 * The built `npm start` process takes entries only for sold-out places; the refusal is the
 * same for every address, and nothing is stored, mailed or held.
 */

// The demo catalog's MS Hamburg evening and its VIP tier with four places.
const EVENT = 109;
const VIP = 1093;
const CATCH_ALL = 'catch-all.example';

let site: RunningSite;

beforeAll(async () => {
  site = await startSite();
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

async function vipFree(): Promise<number | null | undefined> {
  const res = await fetch(`${site.url}/api/waitlist/availability/${EVENT}`);
  const live = (await res.json()) as { variants: { id: number; free: number | null }[] };
  return live.variants.find((v) => v.id === VIP)?.free;
}

function join(email: string, quantity = 4): Promise<Response> {
  return fetch(`${site.url}/api/waitlist`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId: EVENT, variationId: VIP, quantity, email, consent: true }),
  });
}

async function mailsTo(domain: string): Promise<{ to: string; subject: string }[]> {
  const res = await fetch(`${site.url}/api/mail-test/messages`);
  const list = (await res.json()) as { to: string; subject: string }[];
  return list.filter((m) => m.to.includes(domain));
}

describe('waiting list: no hoarding of places on sale (npm start)', () => {
  it('a join for a tier with places is refused in German for every address; the places stay for sale', async () => {
    expect(await vipFree()).toBe(4);
    const bodies: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await join(`abend${i}@${CATCH_ALL}`);
      expect(res.status).toBe(409);
      const body = (await res.json()) as { statusCode: number; error: string; message: string };
      expect(body).toMatchObject({ statusCode: 409, error: 'Conflict' });
      expect(body.message).toMatch(/noch Plätze frei – du kannst sie direkt buchen/);
      bodies.push(JSON.stringify(body));
    }
    // The answer is about the tier, never about the address.
    expect(new Set(bodies).size).toBe(1);
    expect(await vipFree()).toBe(4);

    // All four places can be bought: no entry holds any of them.
    const bought = await createCheckout(site.url, [
      { productId: EVENT, variationId: VIP, name: 'VIP', amount: 49, quantity: 4 },
    ]);
    expect(bought.status).toBe(201);
    expect(await vipFree()).toBe(0);

    // Sold out now: the waiting list takes an entry and mails its confirmation. Mails go out
    // one after another, so once it is here a mail to a refused address would be too.
    const waiting = `nachher@${CATCH_ALL}`;
    expect((await join(waiting, 1)).status).toBe(202);
    const deadline = Date.now() + 20_000;
    while (!(await mailsTo(CATCH_ALL)).some((m) => m.to.includes(waiting))) {
      if (Date.now() > deadline) throw new Error('no confirmation mail for the sold-out tier');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await mailsTo(CATCH_ALL)).map((m) => m.to)).toEqual([waiting]);
  });
});
