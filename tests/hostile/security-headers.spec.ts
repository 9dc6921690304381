import { type RunningSite, startSite } from '../support/site.js';

/**
 * `npm start` serves the site without nginx in front: the process itself must send the
 * security headers on pages, files, API answers and errors (a page that can be framed or
 * run an injected inline script is what they prevent), /einlass alone may use the camera,
 * and HSTS goes only to visitors on https.
 */

let site: RunningSite;
let eventPath: string;
let bundlePath: string;

beforeAll(async () => {
  // A trusted loopback proxy, as behind a TLS-terminating one: its X-Forwarded-Proto counts.
  site = await startSite({ TRUST_PROXY: 'loopback' });
  const events = (await (await fetch(`${site.url}/api/events`)).json()) as { slug: string }[];
  eventPath = `/events/${encodeURIComponent(events[0]!.slug)}`;
  const home = await (await fetch(`${site.url}/`)).text();
  bundlePath = /data-entry="(\/assets\/[^"]+\.js)"/.exec(home)![1]!;
});

afterAll(async () => {
  await site?.stop();
});

const get = (path: string, init?: RequestInit) =>
  fetch(site.url + path, { redirect: 'manual', ...init });

/** Every response of the site carries these, whatever it is. */
function expectProtected(res: Response, what: string): void {
  const h = (name: string) => res.headers.get(name);
  const csp = h('content-security-policy') ?? '';
  expect({ what, csp }).toEqual({ what, csp: expect.stringContaining("frame-ancestors 'none'") });
  expect(csp).toMatch(/(^|; )script-src 'self'( 'wasm-unsafe-eval')?(;|$)/);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(h('x-frame-options')).toBe('DENY');
  expect(h('x-content-type-options')).toBe('nosniff');
  expect(h('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(h('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  expect(h('permissions-policy')).toMatch(/camera=\((self)?\)/);
  expect(h('permissions-policy')).toContain('microphone=()');
  // Plain HTTP: a browser ignores HSTS here, and a site on http must not claim https.
  expect(h('strict-transport-security')).toBeNull();
}

describe('hostile: security headers of npm start (no proxy in front)', () => {
  it.each([
    ['the home page', () => '/'],
    ['the door page', () => '/einlass'],
    ['an event page', () => eventPath],
    ['a page that does not exist', () => '/gibt-es-nicht'],
    ['a bundle', () => bundlePath],
    ['robots.txt', () => '/robots.txt'],
    ['an API answer', () => '/api/events'],
    ['an unknown API address', () => '/api/gibt-es-nicht'],
    ['an address Fastify cannot decode', () => '/api/events/%E0%A4%A'],
  ])('%s carries every security header', async (what, path) => {
    const res = await get(path());
    expect(res.status).toBeLessThan(500);
    expectProtected(res, what);
  });

  it('an error answer to a POST carries them too', async () => {
    const res = await get('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<a/>',
    });
    expect(res.status).toBe(415);
    expectProtected(res, 'POST error');
  });

  it('lets /einlass alone use the camera and compile WebAssembly', async () => {
    const door = await get('/einlass');
    expect(door.headers.get('permissions-policy')).toContain('camera=(self)');
    expect(door.headers.get('content-security-policy')).toContain(
      "script-src 'self' 'wasm-unsafe-eval';",
    );
    for (const path of ['/', eventPath, '/einlass-sw.js', '/api/checkin/events']) {
      const res = await get(path);
      expect({ path, policy: res.headers.get('permissions-policy') }).toEqual({
        path,
        policy: expect.stringContaining('camera=()'),
      });
      expect(res.headers.get('content-security-policy')).not.toContain('wasm-unsafe-eval');
    }
  });

  it('sends HSTS when the visitor came over https through the trusted proxy', async () => {
    const res = await get('/', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    const api = await get('/api/events', { headers: { 'x-forwarded-proto': 'https' } });
    expect(api.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
  });

  it('the pages need no inline script or handler, so the policy blocks every injected one', async () => {
    for (const path of ['/', '/einlass', eventPath, '/gibt-es-nicht']) {
      const html = await (await get(path)).text();
      const tags = html.match(/<script\b[^>]*>/g) ?? [];
      const inline = tags.filter(
        (tag) => !/\bsrc=|type="application\/(?:json|ld\+json)"/.test(tag),
      );
      const handlers = (html.match(/<[a-z][^>]*>/gi) ?? []).filter((tag) =>
        /\son[a-z]+\s*=/i.test(tag),
      );
      expect({ path, inline, handlers }).toEqual({ path, inline: [], handlers: [] });
    }
  });
});
