import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningStack, startStackCli } from '../stack/stack-support.js';

/**
 * backend/README.md "Logs": whoever reads the logs (an operator, a log shipper, a leaked
 * backup of the host) must not find a secret in them. The production topology (`npm run
 * stack`: nginx in front of products and checkout, each process logging at `info` with its
 * access log) is sent every kind of token and code in the places a client puts them, also in
 * requests nginx refuses itself (a body too large, the code limit); then every log file the
 * stack wrote is read for each of them, and each file is closed to other accounts.
 */

jest.setTimeout(120_000);

const DOOR_CODE = 'Tw4k-9Qmz-H3xp-7Rvc';
const ORGANIZER_CODE = 'Bn8f-Kq2w-5Xzm-J7tp';

/** A token as the site makes them: base64url of random bytes. */
const token = (bytes = 24) => randomBytes(bytes).toString('base64url');
/** A signed ticket's shape (compact JWS). */
const ticket = () => `eyJhbGciOiJFZERTQSJ9.${token(18)}.${token(48)}`;

let stack: RunningStack;
const used: string[] = [DOOR_CODE, ORGANIZER_CODE, DOOR_CODE.replace(/-/g, '')];

beforeAll(async () => {
  stack = await startStackCli({
    LOG_LEVEL: 'info',
    CHECKIN_CODE: DOOR_CODE,
    ORGANIZER_CODE,
  });
});

afterAll(async () => {
  await stack?.stop();
  if (stack) rmSync(stack.dir, { recursive: true, force: true });
});

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`${stack.url}${path}`, { redirect: 'manual', ...init });
  await res.arrayBuffer();
  return res;
}

it('no token, session, code or address used against the stack appears in any of its logs, and every log file is 0640', async () => {
  const email = `karla.${token(6).replace(/[^a-z0-9]/gi, '')}@example.org`;
  const tickets = [ticket(), ticket()];
  const unsubscribe = token();
  const offer = token();
  const confirm = token();
  const session = `tps_${token(18)}`;
  used.push(...tickets, unsubscribe, offer, confirm, session, email);

  // Ticket pages and their API, also refused by nginx itself: a body too large (413).
  for (const t of tickets) {
    await send(`/tickets/${t}`);
    await send(`/api/tickets/${t}`);
    await send(`/api/tickets/${t}/pdf`);
    const tooLarge = await send(`/api/tickets/${t}/holder`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(200_000) }),
    });
    expect(tooLarge.status).toBe(413);
  }
  // A reminder's unsubscribe link, the waiting list's links, the return from payment.
  await send(`/api/reminders/unsubscribe/${unsubscribe}`);
  await send(`/api/reminders/unsubscribe/${unsubscribe}`, {
    method: 'POST',
    headers: { origin: stack.url },
  });
  await send(`/waitlist/offer/${offer}`);
  await send(`/api/waitlist/offers/${offer}`);
  await send(`/waitlist/confirm/${confirm}`);
  await send(`/checkout?angebot=${offer}`);
  await send(`/success?session_id=${session}`);
  await send(`/api/checkout/session/${session}`);
  await send(`/api/events?email=${encodeURIComponent(email)}`);
  await send(`/einlass?code=${DOOR_CODE}`);

  // The door: a session for the right code, then used; wrong codes until nginx refuses.
  const door = await fetch(`${stack.url}/api/checkin/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DOOR_CODE}` },
  });
  expect(door.status).toBe(201);
  const doorSession = ((await door.json()) as { token: string }).token;
  used.push(doorSession);
  expect(
    (await send('/api/checkin/events', { headers: { authorization: `Bearer ${doorSession}` } }))
      .status,
  ).toBe(200);
  let refused = false;
  for (let i = 0; i < 30 && !refused; i += 1) {
    const guess = `RATEN-${i}-${token(6)}`;
    used.push(guess);
    refused =
      (await send('/api/checkin/events', { headers: { authorization: `Bearer ${guess}` } }))
        .status === 429;
  }
  expect(refused).toBe(true);

  // The organizer: signed in with the code, the cookie used, signed out.
  const signIn = await fetch(`${stack.url}/api/organizer/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.url },
    body: JSON.stringify({ code: ORGANIZER_CODE }),
  });
  expect(signIn.status).toBe(204);
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  used.push(cookie.split('=')[1]!);
  expect((await send('/api/organizer/events', { headers: { cookie } })).status).toBe(200);
  await send('/api/organizer/session', {
    method: 'DELETE',
    headers: { cookie, origin: stack.url },
  });

  // Every line is written once the processes and nginx stopped.
  await stack.stop();
  const logDir = join(stack.dir, 'logs');
  const files = readdirSync(logDir).filter((f) => f.endsWith('.log'));
  expect(files).toEqual(
    expect.arrayContaining([
      'access.log',
      'error.log',
      'nginx.log',
      'products.log',
      'checkout.log',
    ]),
  );
  const access = readFileSync(join(logDir, 'access.log'), 'utf8');
  // The requests were logged, masked: the log is there, only its secrets are not.
  expect(access).toContain('/api/tickets/[token]/holder');
  expect(access).toContain('/api/reminders/unsubscribe/[token]');
  expect(access).toMatch(/" 413 /);
  for (const file of files) {
    const text = readFileSync(join(logDir, file), 'utf8');
    const found = used.filter((secret) => text.includes(secret));
    expect([file, found]).toEqual([file, []]);
    expect([file, (statSync(join(logDir, file)).mode & 0o777).toString(8)]).toEqual([file, '640']);
  }
  expect((statSync(logDir).mode & 0o777).toString(8)).toBe('750');
});
