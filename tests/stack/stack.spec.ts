import { execFileSync } from 'node:child_process';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { REPO_ROOT } from '../support/site.js';
import { startStackCli, type RunningStack } from './stack-support.js';

// The production topology (nginx → products | checkout) run for real through
// `npm run stack`: routing, headers, limits, status codes and what crawlers read.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-LD is checked field by field
type JsonLd = Record<string, any>;

let stack: RunningStack;

beforeAll(async () => {
  stack = await startStackCli();
}, 90_000);

afterAll(async () => {
  // Stopping cleanly is part of the contract (Ctrl+C / SIGTERM).
  if (stack) expect(await stack.stop()).toBe(0);
});

const get = (path: string, init?: RequestInit) =>
  fetch(`${stack.url}${path}`, { redirect: 'manual', ...init });

async function anEventSlug(): Promise<string> {
  const events = (await (await get('/api/events')).json()) as {
    slug: string;
    startsAt: string | null;
  }[];
  const dated = events.find((e) => e.startsAt);
  if (!dated) throw new Error('the catalog has no dated event');
  return dated.slug;
}

describe('routing through nginx', () => {
  const products = [
    ['GET', '/api/woocommerce/products'],
    ['GET', '/api/events'],
    ['GET', '/api/blog'],
    ['POST', '/api/coupons/validate'],
    ['GET', '/api/health'],
    ['GET', '/'],
    ['GET', '/robots.txt'],
    ['GET', '/sitemap.xml'],
  ] as const;
  const checkout = [
    ['POST', '/api/checkout/session'],
    ['GET', '/api/checkout/session/cs_unknown'],
    ['POST', '/api/checkout/webhook'],
    ['POST', '/api/webhooks/woocommerce'],
    ['POST', '/api/contact'],
    ['GET', '/api/mail-test'],
    ['GET', '/api/checkin/events'],
    ['GET', '/api/checkin/events/1/tickets'],
    ['POST', '/api/checkin/scans'],
    ['GET', '/api/reminders/unsubscribe/aaaaaaaaaaaaaaaaaaaaaaaa'],
    ['POST', '/api/reminders/unsubscribe/aaaaaaaaaaaaaaaaaaaaaaaa'],
  ] as const;

  it.each(products)('%s %s is answered by the products process', async (method, path) => {
    const res = await get(path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
    expect(res.headers.get('x-served-by')).toBe('products');
  });

  it.each(checkout)('%s %s is answered by the checkout process', async (method, path) => {
    const res = await get(path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
    expect(res.headers.get('x-served-by')).toBe('checkout');
  });

  it('never caches the door API (rules "Tickets and the door"): no-store, the German 401 as JSON', async () => {
    for (const path of ['/api/checkin/events', '/api/checkin/events/1/tickets']) {
      const res = await get(path, { headers: { authorization: 'Bearer FALSCH-FALSCH' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(((await res.json()) as { message: string }).message).toBe('Der Türcode stimmt nicht.');
    }
  });

  it('keeps the webhook body byte for byte (the signature check sees exactly what was sent)', async () => {
    const res = await get('/api/checkout/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{"id":"evt_x","type":"checkout.session.completed"}',
    });
    // A bad signature is the webhook's own 400 JSON, not an nginx error page.
    expect(res.headers.get('x-served-by')).toBe('checkout');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });
  it('routes WooCommerce\'s webhooks to checkout (rules "WooCommerce webhooks"): the app\'s own answer, not an nginx page', async () => {
    const res = await get('/api/webhooks/woocommerce', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-topic': 'order.updated',
        'x-wc-webhook-signature': 'AAAA',
      },
      body: '{"id":1,"status":"cancelled"}',
    });
    expect(res.headers.get('x-served-by')).toBe('checkout');
    expect(res.headers.get('content-type')).toMatch(/json/);
    // The stack runs without WOOCOMMERCE_WEBHOOK_SECRET: the checkout process says so itself.
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Webhooks von WooCommerce sind hier nicht eingerichtet.',
    );
  });
});

describe('headers', () => {
  const paths = ['/', '/api/events', '/api/health', '/does-not-exist', '/robots.txt', '/api/nope'];

  it.each(paths)('%s carries every security header', async (path) => {
    const res = await get(path);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain('form-action');
    expect(csp).toContain('https://checkout.stripe.com');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('permissions-policy')).toContain('payment=(self)');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each(paths)(
    "%s sends each security header once: nginx replaces the API process's copy",
    async (path) => {
      const res = await get(path);
      for (const name of ['content-security-policy', 'x-frame-options', 'permissions-policy']) {
        // fetch joins repeated headers with ", ".
        expect(res.headers.get(name)).not.toMatch(/, (default-src|DENY|payment=)/);
      }
    },
  );

  it('sends HSTS only to visitors on https (a TLS proxy in front says so in X-Forwarded-Proto)', async () => {
    expect((await get('/')).headers.get('strict-transport-security')).toBeNull();
    const https = await get('/', { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it('lets /einlass alone use the camera and compile WebAssembly', async () => {
    const door = await get('/einlass');
    expect(door.headers.get('permissions-policy')).toContain('camera=(self)');
    expect(door.headers.get('content-security-policy')).toContain("'wasm-unsafe-eval'");
    const home = await get('/');
    expect(home.headers.get('permissions-policy')).toContain('camera=()');
    expect(home.headers.get('content-security-policy')).not.toContain('wasm');
  });

  it('caches index.html never and hashed bundles for a year', async () => {
    const page = await get('/');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    // The entry bundle, which /hydrate.js requests once the page has loaded.
    const bundle = /data-entry="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(bundle).toBeDefined();
    const asset = await get(bundle!, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-security-policy')).toBeTruthy();
  });

  it('compresses text responses', async () => {
    const res = await get('/api/woocommerce/products', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toMatch(/gzip|br/);
  });
});

describe('catalog microcache', () => {
  it('answers repeated catalog reads from nginx, keeps ETag revalidation, never caches POSTs', async () => {
    await get('/api/events');
    const second = await get('/api/events');
    expect(second.headers.get('x-cache-status')).toMatch(/HIT|UPDATING|STALE/);
    const etag = second.headers.get('etag');
    expect(etag).toBeTruthy();
    const revalidated = await get('/api/events', { headers: { 'if-none-match': etag! } });
    expect(revalidated.status).toBe(304);
    const post = await get('/api/coupons/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"code":"AFTERWORK10"}',
    });
    expect(post.headers.get('x-cache-status')).toBeNull();
  });
});

describe('page microcache (rules "Rendering")', () => {
  it('answers a repeated page from nginx, but never one that carries a cookie', async () => {
    await get('/faq');
    const second = await get('/faq');
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache-status')).toMatch(/HIT|UPDATING|STALE/);
    expect(await second.text()).toContain('Häufige Fragen');
    const withCookie = await get('/faq', { headers: { cookie: 'a=1' } });
    expect(withCookie.headers.get('x-cache-status')).toBe('BYPASS');
  });

  it('keeps the rendering of crawlers and visitors apart (rules §2: no error page for bots)', async () => {
    const bot = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' };
    const person = {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36',
    };
    await get('/gibt-es-nicht', { headers: person });
    const forBot = await get('/gibt-es-nicht', { headers: bot });
    expect(forBot.status).toBe(404);
    expect(await forBot.text()).not.toContain('Page Not Found</h1>');
    expect(await (await get('/gibt-es-nicht', { headers: person })).text()).toContain(
      'Page Not Found</h1>',
    );
  });
});

describe('pages for crawlers', () => {
  it('answers unknown pages and unknown slugs with 404 and the rendered 404 page', async () => {
    for (const path of ['/gibt-es-nicht', '/events/gibt-es-nicht', '/blog/gibt-es-nicht']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain('<div id="root">');
      expect(html).toContain('noindex');
    }
  });

  it('answers every known route with 200', async () => {
    for (const path of [
      '/',
      '/faq',
      '/cart',
      '/contact',
      '/success',
      '/checkout',
      '/impressum',
      '/blog',
      '/datenschutz',
      '/coupon-test',
      '/webhook-test',
      '/apple-pay-test',
    ]) {
      expect([path, (await get(path)).status]).toEqual([path, 200]);
    }
  });

  it('keeps the test pages out of search engines', async () => {
    const robots = await (await get('/robots.txt')).text();
    for (const path of ['/coupon-test', '/webhook-test', '/apple-pay-test', '/api/']) {
      expect(robots).toContain(`Disallow: ${path}`);
    }
    expect(robots).toContain(`Sitemap: ${stack.url}/sitemap.xml`);
    expect(await (await get('/coupon-test')).text()).toMatch(
      /<meta name="robots" content="noindex/,
    );
  });

  it('renders upcoming events with names and prices into the raw HTML of /', async () => {
    const events = (await (await get('/api/events')).json()) as {
      name: string;
      price: number;
      past: boolean;
    }[];
    const html = await (await get('/')).text();
    for (const event of events.filter((e) => !e.past)) {
      expect(html).toContain(event.name.replace(/&/g, '&amp;'));
      expect(html).toMatch(new RegExp(event.price.toFixed(2).replace('.', ',') + '\\s€'));
    }
  });

  it('puts title, description, canonical, Open Graph and Event JSON-LD into the raw HTML of an event page', async () => {
    const slug = await anEventSlug();
    const event = (await (await get(`/api/events/${slug}`)).json()) as {
      name: string;
      startsAt: string;
      price: number;
    };
    const res = await get(`/events/${slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<link rel="canonical" href="${stack.url}/events/${slug}">`);
    expect(html).toMatch(
      new RegExp(`<meta property="og:title" content="[^"]*${event.name.split(' ')[0]}`),
    );
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}">/);
    expect(html).toMatch(/<meta name="twitter:card"/);

    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    const data = blocks.map((m) => JSON.parse(m[1]!) as JsonLd);
    const ld = data.find((d) => d['@type'] === 'Event');
    expect(ld).toBeDefined();
    expect(ld!.name).toBe(event.name);
    expect(new Date(ld!.startDate).getTime()).toBe(new Date(event.startsAt).getTime());
    expect(ld!.location['@type']).toBe('Place');
    expect(ld!.offers.price).toBe(event.price.toFixed(2));
    expect(ld!.offers.priceCurrency).toBe('EUR');
    expect(ld!.offers.availability).toMatch(
      /^https:\/\/schema\.org\/(InStock|LimitedAvailability|SoldOut)$/,
    );
  });

  it('gives /faq FAQPage JSON-LD and lists events in the sitemap', async () => {
    const faq = await (await get('/faq')).text();
    const ld = JSON.parse(
      /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(faq)![1]!,
    );
    expect(ld['@type']).toBe('FAQPage');
    // The markup carries exactly the questions and answers the page shows (GET /api/faq).
    const shown = (await (await get('/api/faq')).json()) as { question: string; answer: string }[];
    expect(shown.length).toBeGreaterThan(0);
    expect(ld.mainEntity.map((q: JsonLd) => [q.name, q.acceptedAnswer.text])).toEqual(
      shown.map((e) => [e.question, e.answer]),
    );
    const sitemap = await (await get('/sitemap.xml')).text();
    expect(sitemap).toContain(`<loc>${stack.url}/events/${await anEventSlug()}</loc>`);
  });

  it('redirects /next to the next event', async () => {
    const res = await get('/next');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/(events\/.+)?$/);
  });
});

describe('calendar', () => {
  it('serves an .ics that a real iCalendar parser reads', async () => {
    const slug = await anEventSlug();
    const event = (await (await get(`/api/events/${slug}`)).json()) as {
      name: string;
      startsAt: string;
    };
    const res = await get(`/api/events/${slug}/calendar.ics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await res.text();
    expect(text).toMatch(/\r\n/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const calendar = new ICAL.Component(ICAL.parse(text));
    const vevent = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(vevent.summary).toBe(event.name);
    expect(vevent.uid).toBeTruthy();
    expect(vevent.startDate.toJSDate().getTime()).toBe(new Date(event.startsAt).getTime());
    expect(vevent.endDate.toJSDate().getTime() - vevent.startDate.toJSDate().getTime()).toBe(
      3 * 3600_000,
    );
    expect(vevent.location).toBeTruthy();
  });

  it('serves /events.ics from the products process through the microcache, every upcoming event parsed', async () => {
    const events = (await (await get('/api/events')).json()) as {
      name: string;
      startsAt: string | null;
      past: boolean;
    }[];
    const upcoming = events.filter((e) => !e.past && e.startsAt);
    await get('/events.ics');
    const res = await get('/events.ics', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(res.headers.get('x-cache-status')).toMatch(/HIT|UPDATING|STALE/);
    expect(res.headers.get('content-security-policy')).toBeTruthy();
    const calendar = new ICAL.Component(ICAL.parse(await res.text()));
    const entries = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(entries.map((e) => e.summary)).toEqual(upcoming.map((e) => e.name));
    expect(new Set(entries.map((e) => e.uid)).size).toBe(entries.length);
    for (const entry of entries) {
      expect(Number(entry.component.getFirstPropertyValue('sequence'))).toBeGreaterThan(0);
    }
  });

  it('answers 404 JSON for an unknown event', async () => {
    const res = await get('/api/events/gibt-es-nicht/calendar.ics');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});

describe('limits', () => {
  it('answers a burst of contact messages with 429 JSON in German', async () => {
    const results = await Promise.all(
      Array.from({ length: 15 }, () =>
        get('/api/contact', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
      ),
    );
    // nginx's own limit (the API has a per-IP guard of its own): no X-Served-By.
    const limited = results.filter((r) => r.status === 429 && !r.headers.get('x-served-by'));
    expect(limited.length).toBeGreaterThan(0);
    const body = (await limited[0]!.json()) as { statusCode: number; message: string };
    expect(body.statusCode).toBe(429);
    expect(body.message).toMatch(/Zu viele Anfragen/);
    expect(limited[0]!.headers.get('content-security-policy')).toBeTruthy();
  });

  it('caps bursts of payment session creation with 429', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        get('/api/checkout/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
      ),
    );
    expect(
      results.filter((r) => r.status === 429 && !r.headers.get('x-served-by')).length,
    ).toBeGreaterThan(0);
  });

  it('rejects oversized bodies before they reach the API', async () => {
    const res = await get('/api/contact/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(200 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('x-served-by')).toBeNull();
  });
});

describe('the organizer through nginx (rules "The organizer")', () => {
  /** A GET on a socket of its own, as a browser's EventSource holds one. */
  function openStream(path: string, cookie: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = httpGet(`${stack.url}${path}`, { agent: false, headers: { cookie } });
      req.once('response', resolve);
      req.once('error', reject);
    });
  }

  it('goes to the checkout process, is never cached, signs in with the code ops read from the store, and streams live', async () => {
    const anonymous = await get('/api/organizer/session');
    expect(anonymous.headers.get('x-served-by')).toBe('checkout');
    expect(anonymous.headers.get('cache-control')).toBe('no-store, private');
    expect(await anonymous.json()).toEqual({ signedIn: false, method: 'code', name: null });
    const refused = await get('/api/organizer/events');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store, private');
    expect(((await refused.json()) as { message: string }).message).toMatch(/Bitte melde dich/);

    // Production prints no code: ops read it with `npm run organizer-code`.
    const printed = execFileSync(
      process.execPath,
      [join(REPO_ROOT, 'backend', 'dist', 'organizer-code.cli.js')],
      {
        env: {
          ...process.env,
          DATABASE_URL: `sqlite:${join(stack.dir, 'awhh.db')}`,
          ORGANIZER_CODE: '',
          WOOCOMMERCE_URL: '',
        },
        encoding: 'utf8',
      },
    );
    const code = /: (\S+)\s*$/.exec(printed)![1]!;
    const signIn = await get('/api/organizer/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url },
      body: JSON.stringify({ code }),
    });
    expect(signIn.status).toBe(204);
    expect(signIn.headers.get('x-served-by')).toBe('checkout');
    expect(signIn.headers.get('cache-control')).toBe('no-store, private');
    const setCookie = signIn.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0]!;

    // The page is rendered for everyone alike; with the cookie it never comes from the cache.
    await get('/veranstalter');
    const page = await get('/veranstalter', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-cache-status')).toBe('BYPASS');
    expect(await page.text()).toMatch(/<meta name="robots" content="noindex/);

    const { events } = (await (
      await get('/api/organizer/events', { headers: { cookie } })
    ).json()) as { events: { id: number }[] };
    const stream = await openStream(`/api/organizer/events/${events[0]!.id}/live`, cookie);
    try {
      expect(stream.statusCode).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['x-served-by']).toBe('checkout');
      expect(stream.headers['cache-control']).toBe('no-store, private');
      // Unbuffered: the first figures arrive at once, not when a buffer fills.
      const first = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error('no message through nginx')), 5_000);
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          text += chunk;
          const data = /^data: (.+)$/m.exec(text);
          if (data) {
            clearTimeout(timer);
            resolve(data[1]!);
          }
        });
      });
      expect(JSON.parse(first)).toMatchObject({ id: events[0]!.id });
    } finally {
      stream.destroy();
    }
  });
});
