import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  type BackendProcess,
  clientHeaders,
  startBackend,
} from '../fault/support/backend-process.js';

/**
 * rules "Errors": every API error is JSON `{statusCode, error, message}` with a German
 * message, and nothing a client sends may produce a 5xx. Every POST endpoint is fed
 * random and malformed bodies, wrong content types, huge and deeply nested bodies.
 */

const ENDPOINTS = [
  '/api/coupons/validate',
  '/api/checkout/session',
  '/api/checkout/webhook',
  '/api/contact',
] as const;

let site: BackendProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'awhh-hostile-fuzz-'));
  site = await startBackend({ DATABASE_URL: `sqlite:${join(dataDir, 'awhh.db')}`, STATIC_DIR: '' });
});

afterAll(async () => {
  await site?.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  contentType: string;
  body: unknown;
  raw: string;
}

async function post(
  path: string,
  body: string | Buffer,
  contentType: string | null,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(site.url + path, {
    method: 'POST',
    headers: {
      ...(contentType === null ? {} : { 'content-type': contentType }),
      ...clientHeaders(),
      ...headers,
    },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  const raw = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // Checked below: errors must be JSON.
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body: parsed,
    raw,
  };
}

/** Never a 5xx; an error is `{statusCode, error, message}` with the response's own status. */
function expectClientSafe(answer: Answer, what: string): void {
  const summary = `${what} → ${answer.status} ${answer.raw.slice(0, 300)}`;
  if (answer.status >= 500) throw new Error(`5xx: ${summary}`);
  if (answer.status >= 400) {
    const body = answer.body as Record<string, unknown> | undefined;
    const ok =
      answer.contentType.includes('application/json') &&
      typeof body === 'object' &&
      body !== null &&
      body.statusCode === answer.status &&
      typeof body.error === 'string' &&
      typeof body.message === 'string' &&
      (body.message as string).length > 0;
    if (!ok) throw new Error(`not a JSON error: ${summary}`);
  }
}

/** Bodies that look almost right: the checkout's own fields with hostile values. */
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 0.5, 1e21, -0, Number.MAX_SAFE_INTEGER + 2),
  fc.string(),
  fc.constant(null),
);
const lineItem = fc.record(
  {
    name: fc.oneof(fc.string(), fc.constant('<script>alert(1)</script>')),
    amount: number,
    quantity: number,
    currency: fc.oneof(fc.constantFrom('eur', 'EUR', 'usd', ''), fc.string()),
    images: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.string()),
    productId: fc.oneof(fc.constantFrom(101, 102, 201, 999999), number),
    variationId: number,
  },
  { requiredKeys: [] },
);
const nearCheckout = fc.record(
  {
    line_items: fc.oneof(fc.array(lineItem, { maxLength: 4 }), fc.anything()),
    success_url: fc.oneof(fc.webUrl(), fc.constant('javascript:alert(1)'), fc.string()),
    cancel_url: fc.oneof(fc.webUrl(), fc.string()),
    payment_method: fc.oneof(fc.constantFrom('card', 'paypal', '__proto__'), fc.string()),
    coupon: fc.oneof(
      fc.constant(null),
      fc.record(
        { code: fc.string(), discountType: fc.string(), discount: number },
        { requiredKeys: [] },
      ),
      fc.anything(),
    ),
    email: fc.oneof(fc.emailAddress(), fc.string()),
  },
  { requiredKeys: [] },
);
const nearCoupon = fc.record(
  {
    code: fc.oneof(
      fc.constantFrom('AFTERWORK10', 'afterwork10', 'FREIKARTE', ''),
      fc.string(),
      number,
    ),
    subtotal: number,
  },
  { requiredKeys: [] },
);
const nearContact = fc.record(
  {
    name: fc.oneof(fc.string(), number),
    email: fc.oneof(fc.emailAddress(), fc.string()),
    message: fc.oneof(fc.string({ maxLength: 6000 }), fc.anything()),
    consent: fc.oneof(fc.boolean(), fc.anything()),
    website: fc.oneof(fc.constant(''), fc.string()),
  },
  { requiredKeys: [] },
);
const NEAR: Record<(typeof ENDPOINTS)[number], fc.Arbitrary<unknown>> = {
  '/api/coupons/validate': nearCoupon,
  '/api/checkout/session': nearCheckout,
  '/api/checkout/webhook': fc.record({ id: fc.string(), type: fc.string(), data: fc.anything() }),
  '/api/contact': nearContact,
};

const hostileKeys = fc.constantFrom(
  '{"__proto__":{"polluted":true},"code":"AFTERWORK10"}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"line_items":[{"__proto__":{"amount":0}}]}',
);

describe('hostile: fuzzing every POST endpoint', () => {
  it.each(ENDPOINTS)(
    '%s: random JSON values never give a 5xx or a non-JSON error',
    async (path) => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.jsonValue(), NEAR[path]), async (value) => {
          const text = JSON.stringify(value) ?? 'null';
          expectClientSafe(await post(path, text, 'application/json'), text.slice(0, 200));
        }),
        { numRuns: 150 },
      );
    },
  );

  it.each(ENDPOINTS)('%s: malformed bytes and wrong content types', async (path) => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
          hostileKeys,
        ),
        fc.constantFrom(
          'application/json',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/xml',
          'application/octet-stream',
          'application/json-patch+json',
          '',
          null,
        ),
        async (body, contentType) => {
          const answer = await post(path, body, contentType, { 'stripe-signature': 't=1,v1=00' });
          expectClientSafe(answer, `${contentType} ${String(body).slice(0, 120)}`);
        },
      ),
      { numRuns: 80 },
    );
  });

  it.each(ENDPOINTS)(
    '%s: a huge body is refused with 413 JSON, the process stays up',
    async (path) => {
      const huge = JSON.stringify({ code: 'x'.repeat(3 * 1024 * 1024), message: 'y' });
      const answer = await post(path, huge, 'application/json');
      expectClientSafe(answer, 'huge body');
      expect(answer.status).toBe(413);
      expect(site.alive()).toBe(true);
    },
  );

  it.each(ENDPOINTS)('%s: deeply nested JSON', async (path) => {
    for (const depth of [1_000, 20_000]) {
      const deepArray = '['.repeat(depth) + ']'.repeat(depth);
      expectClientSafe(await post(path, deepArray, 'application/json'), `depth ${depth} array`);
      const deepObject = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      expectClientSafe(await post(path, deepObject, 'application/json'), `depth ${depth} object`);
      const deepInField = `{"code":${deepArray},"line_items":${deepArray},"coupon":${deepObject}}`;
      expectClientSafe(await post(path, deepInField, 'application/json'), `depth ${depth} field`);
    }
    expect(site.alive()).toBe(true);
  });

  it('the prototype was not polluted: the API still validates as before', async () => {
    const answer = await post(
      '/api/coupons/validate',
      '{"code":"GIBTESNICHT"}',
      'application/json',
    );
    expectClientSafe(answer, 'after pollution attempts');
    expect([404, 422]).toContain(answer.status);
    expect(site.alive()).toBe(true);
  });
});
