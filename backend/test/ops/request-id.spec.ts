import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REQUEST_ID_PATTERN, runWithLogContext } from '../../src/common/request-context.js';
import { ticketReader } from '../../src/site/site-data-source.js';
import { createApp } from '../../src/app.factory.js';
import { createTestApp, testConfig, wooEnv } from '../support/test-app.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';

/** nginx's `$request_id`: 32 hex digits. */
const NGINX_ID = '6f1c0e8a9b2d4c7e8f0a1b2c3d4e5f60';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The JSON lines the app writes to stdout and stderr while `fn` runs. */
async function logLines(fn: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    }),
  );
  try {
    await fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('X-Request-Id (docs/operations.md "Betrieb: Metriken", request ids)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp();
  });

  afterAll(async () => {
    await app.close();
  });

  it("echoes the caller's id when it has the strict shape (nginx's, a UUID)", async () => {
    for (const id of [NGINX_ID, 'a3f1c9d2-7b4e-4f0a-9c1d-2e3f4a5b6c7d', 'Abc-1234']) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': id },
      });
      expect(res.headers['x-request-id']).toBe(id);
    }
  });

  it('replaces any other id with a fresh UUID, also on errors', async () => {
    const refused = [
      '<script>alert(1)</script>',
      'kurz',
      'a'.repeat(65),
      'mit leerzeichen-123',
      'unter_strich_123',
      'gast@example.org',
      'id-12345678\r\nSet-Cookie: x=1',
    ];
    for (const id of refused) {
      expect(REQUEST_ID_PATTERN.test(id)).toBe(false);
      const res = await app.inject({
        method: 'GET',
        url: '/api/kein-solcher-pfad',
        headers: { 'x-request-id': id },
      });
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
    const made = await app.inject({ method: 'GET', url: '/api/health' });
    expect(made.headers['x-request-id']).toMatch(UUID);
  });
});

describe('log lines of a request', () => {
  let fake: FakeWooCommerce;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    fake = await FakeWooCommerce.start();
    app = await createApp(testConfig({ ...wooEnv(fake), LOG_LEVEL: 'info' }), { accessLog: true });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = await app.getUrl();
  });

  afterAll(async () => {
    await app.close();
    await fake.stop();
  });

  it('carry its requestId: a line written while handling it and the access log line', async () => {
    const lines = await logLines(async () => {
      // A wrong key for coupons: the catalog logs the failure while the request waits for it,
      // after its body was read (the context survives the body's stream).
      fake.failNext(1, 401, '/wp-json/wc/v3/coupons');
      const res = await fetch(`${url.replace('[::1]', '127.0.0.1')}/api/coupons/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': NGINX_ID },
        body: JSON.stringify({ code: 'HAFEN-ID-TEST' }),
      });
      expect(res.headers.get('x-request-id')).toBe(NGINX_ID);
      expect(res.status).toBe(503);
      await res.arrayBuffer();
    });
    const failure = lines.find(
      (line) => (line.message as { msg?: string } | undefined)?.msg === 'catalog load failed',
    );
    expect(failure).toMatchObject({ requestId: NGINX_ID, context: 'Catalog' });
    const access = lines.find(
      (line) => (line.message as { msg?: string } | undefined)?.msg === 'request',
    );
    expect(access).toMatchObject({ requestId: NGINX_ID, context: 'HTTP' });
    // A line written outside any request carries none.
    const outside = await logLines(async () => {
      new Logger('Probe').log({ msg: 'ausserhalb' });
    });
    expect(outside).toHaveLength(1);
    expect(outside[0]).not.toHaveProperty('requestId');
  });
});

describe('a request to the checkout side', () => {
  it("carries the page request's id, so both processes' lines of it can be found together", async () => {
    const seen: (string | undefined)[] = [];
    const checkout = createServer((req, res) => {
      seen.push(req.headers['x-request-id'] as string | undefined);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => checkout.listen(0, '127.0.0.1', resolve));
    try {
      const read = ticketReader(`http://127.0.0.1:${(checkout.address() as AddressInfo).port}`);
      await runWithLogContext({ requestId: NGINX_ID }, () => read('kein-ticket'));
      await read('kein-ticket');
      expect(seen).toEqual([NGINX_ID, undefined]);
    } finally {
      await new Promise((resolve) => checkout.close(resolve));
    }
  });
});
