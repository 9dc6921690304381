import { type LoneNginx, startNginxAlone } from './stack-support.js';

// rules "Tickets and the door", "The organizer": nginx fences code guessing in front of every
// API process (each process's own lockout counts per process). Only nginx is under test: the
// API processes are "down", so whatever nginx lets through is its own 502 and whatever it
// refuses is its 429, German JSON as the API's.

let nginx: LoneNginx;

beforeAll(async () => {
  nginx = await startNginxAlone('limits');
}, 30_000);

afterAll(async () => {
  await nginx?.stop();
});

async function statuses(
  count: number,
  path: string,
  init: RequestInit = {},
): Promise<{ statuses: number[]; last: Response }> {
  const seen: number[] = [];
  let last!: Response;
  for (let i = 0; i < count; i += 1) {
    last = await fetch(`${nginx.url}${path}`, init);
    seen.push(last.status);
    if (i < count - 1) await last.arrayBuffer();
  }
  return { statuses: seen, last };
}

it('door codes: a burst passes, then 429 in German; requests with a door session are not counted', async () => {
  const guesses = await statuses(40, '/api/checkin/events', {
    headers: { authorization: 'Bearer FALSCH-FALSCH-1234' },
  });
  expect(guesses.statuses.slice(0, 20).every((s) => s === 502)).toBe(true);
  expect(guesses.statuses.slice(22)).toEqual(Array<number>(18).fill(429));
  expect(await guesses.last.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });

  const session = await statuses(40, '/api/checkin/events', {
    headers: { authorization: 'Bearer door.eyJ0ZXN0Ijp0cnVlfQ.c2lnbmF0dXJl' },
  });
  expect(session.statuses.every((s) => s === 502)).toBe(true);
});

it('the organizer sign-in: a burst of POSTs passes, then 429; reading the session is not counted', async () => {
  const signIns = await statuses(40, '/api/organizer/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: 'FALSCH' }),
  });
  expect(signIns.statuses.slice(0, 20).every((s) => s === 502)).toBe(true);
  expect(signIns.statuses.slice(22)).toEqual(Array<number>(18).fill(429));
  const reads = await statuses(40, '/api/organizer/session');
  expect(reads.statuses.every((s) => s === 502)).toBe(true);
});
