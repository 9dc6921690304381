import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { type LoneNginx, startNginxAlone } from './stack-support.js';

// nginx's access log, configured as `npm run stack` and the container configure it: whoever
// reads it must not be able to open a ticket, take an offer, read an order or write to a
// buyer. Only nginx is under test, so it runs alone (the API processes are "down" and every
// request is logged with nginx's own 502) and needs no build.

let nginx: LoneNginx;
let url: string;

beforeAll(async () => {
  nginx = await startNginxAlone('log');
  url = nginx.url;
}, 30_000);

afterAll(async () => {
  await nginx?.stop();
});

const TICKET = 'eyJhbGciOiJFZERTQSJ9.eyJ0aWQiOiJ0a3RfZ2VoZWltIn0.c2lnbmF0dXJlLWdlaGVpbQ';
const SESSION = 'tps_GeheimeSitzung0123456789';
const OFFER = 'R2VoZWltZXMtQW5nZWJvdC0yNC1CeXRlcw';
const EMAIL = 'karla.kundin+awhh@example.org';
const CODE = 'MPPQ-RQFZ-DHQ6-M7T3';

/** Request paths and how the log must show them. */
const REQUESTS: [string, string][] = [
  [`/tickets/${TICKET}`, '/tickets/[token]'],
  [`/api/tickets/${TICKET}`, '/api/tickets/[token]'],
  [`/api/tickets/${TICKET}/pdf`, '/api/tickets/[token]/pdf'],
  ['/api/tickets/public-key', '/api/tickets/public-key'],
  [`/waitlist/offer/${OFFER}`, '/waitlist/offer/[token]'],
  [`/waitlist/confirm/${OFFER}`, '/waitlist/confirm/[token]'],
  [`/waitlist/unsubscribe/${OFFER}`, '/waitlist/unsubscribe/[token]'],
  [`/api/waitlist/offers/${OFFER}`, '/api/waitlist/offers/[token]'],
  [`/checkout?angebot=${OFFER}`, '/checkout?angebot=[token]'],
  [`/success?session_id=${SESSION}`, '/success?session_id=[token]'],
  [`/api/checkout/session/${SESSION}`, '/api/checkout/session/[token]'],
  [`/api/checkout/test-provider/${SESSION}`, '/api/checkout/test-provider/[token]'],
  [
    `/api/events?email=${encodeURIComponent(EMAIL)}&an=${EMAIL}&seite=2`,
    '/api/events?email=[email]&an=[email]&seite=2',
  ],
  [`/einlass?code=${CODE}`, '/einlass?code=[code]'],
];

function accessLog(): string {
  try {
    return readFileSync(join(nginx.dir, 'logs', 'access.log'), 'utf8');
  } catch {
    return '';
  }
}

it('masks tokens, session ids, offers, door codes and e-mail addresses; keeps the rest', async () => {
  for (const [path] of REQUESTS) {
    // Sent from a ticket's page: the referring address carries a token and an address too.
    await fetch(`${url}${path}`, {
      redirect: 'manual',
      headers: { referer: `${url}/tickets/${TICKET}?email=${EMAIL}` },
    }).then((res) => res.arrayBuffer());
  }
  // The log is buffered for up to a second.
  const marker = '/api/health?access-log-spec';
  await fetch(`${url}${marker}`).then((res) => res.arrayBuffer());
  const deadline = Date.now() + 10_000;
  while (!accessLog().includes(marker) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const log = accessLog();
  const logged = log
    .split('\n')
    .map((line) => /"GET (\S+) HTTP\/1\.1"/.exec(line)?.[1])
    .filter((path): path is string => !!path && path !== marker);
  // Two workers buffer their lines apart: the order in the file is theirs.
  expect(logged.sort()).toEqual(REQUESTS.map(([, masked]) => masked).sort());
  // The referring page: its origin only.
  expect(log).toContain(`"${url}" "`);
  for (const secret of [TICKET, SESSION, OFFER, EMAIL, encodeURIComponent(EMAIL), CODE]) {
    expect(log).not.toContain(secret);
  }
});

describe('request ids (snippets/response-headers.conf)', () => {
  /** Waits until the buffered log has a line with this path; returns that line. */
  async function logLine(path: string): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const line = accessLog()
        .split('\n')
        .find((l) => l.includes(`"GET ${path} HTTP/1.1"`));
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`${path} not in the access log`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it("gives the API process, the client and the log nginx's own id, never the client's", async () => {
    // The products process, as far as nginx can tell: it answers with the id it was given.
    const upstream = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      // As the API process does: it repeats the id, which nginx must not double.
      res.setHeader('x-request-id', String(req.headers['x-request-id']));
      res.end(JSON.stringify({ received: req.headers['x-request-id'] ?? null }));
    });
    await new Promise<void>((resolve) => upstream.listen(nginx.productsPort, '127.0.0.1', resolve));
    try {
      const path = '/api/events?request-id-spec';
      const res = await fetch(`${url}${path}`, {
        headers: { 'x-request-id': 'vom-client-gewaehlt' },
      });
      expect(res.status).toBe(200);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(((await res.json()) as { received: string }).received).toBe(id);
      expect(await logLine(path)).toMatch(new RegExp(` ${id}$`));

      // Each request its own id.
      const again = await fetch(`${url}${path}&again`);
      await again.arrayBuffer();
      expect(again.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
      expect(again.headers.get('x-request-id')).not.toBe(id);
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it("puts the id on nginx's own answers too: an upstream that is down, a static file", async () => {
    for (const path of [
      '/api/checkout/session/x?request-id-spec',
      '/favicon.ico?request-id-spec',
    ]) {
      const res = await fetch(`${url}${path}`);
      await res.arrayBuffer();
      const id = res.headers.get('x-request-id');
      expect([path, id]).toEqual([path, expect.stringMatching(/^[0-9a-f]{32}$/)]);
      // The log masks the session id in the first path.
      const logged = path.replace('/session/x', '/session/[token]');
      expect(await logLine(logged)).toMatch(new RegExp(` ${id}$`));
    }
  });
});
