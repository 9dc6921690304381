import { HttpException, Logger, NotFoundException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { apiErrorSchema } from '@awhh/machines';
import { apiError } from '../../src/common/api-error.js';
import { ApiExceptionFilter, toApiErrorBody } from '../../src/common/api-exception.filter.js';
import { CatalogError } from '../../src/catalog/catalog.errors.js';
import { createTestApp } from '../support/test-app.js';

beforeAll(() => Logger.overrideLogger(false));

const errorOf = (res: { body: string }) => apiErrorSchema.strict().parse(JSON.parse(res.body));

describe('bad input through HTTP', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const post = (payload: string, contentType = 'application/json') =>
    app.inject({
      method: 'POST',
      url: '/api/coupons/validate',
      headers: { 'content-type': contentType },
      payload,
    });

  it('answers malformed JSON with 400 and a German message', async () => {
    const res = await post('{"code": "AFTERWORK10",');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
    });
  });

  it('answers an empty JSON body with 400', async () => {
    const res = await post('');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toMatch(/JSON/);
  });

  it.each([
    ['a number as code', { code: 42 }, /^code: .*erwartet string/],
    ['an empty code', { code: '   ' }, /^code: /],
    ['a negative subtotal', { code: 'AFTERWORK10', subtotal: -5 }, /^subtotal: /],
    ['a subtotal as text', { code: 'AFTERWORK10', subtotal: 'zwölf' }, /^subtotal: /],
    ['no code at all', {}, /^code: /],
    ['an array', [], /erwartet object/],
  ])('answers %s with 400 naming the field', async (_label, body, message) => {
    const res = await post(JSON.stringify(body));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toMatch(message);
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await post('<code>AFTERWORK10</code>', 'application/xml');
    expect(res.statusCode).toBe(415);
    expect(errorOf(res).message).toBe('Dieses Format nehmen wir nicht an. Bitte sende JSON.');
  });

  it('answers a body over 100 KB with 413', async () => {
    const res = await post(JSON.stringify({ code: 'x'.repeat(110 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).message).toBe('Der Inhalt der Anfrage ist zu groß.');
  });

  it.each([
    '/api/gibt-es-nicht',
    '/api/events/a/b',
    '/api/blog/%E0%A4%A',
    `/api/events/${'x'.repeat(500)}`,
  ])('answers %s with 404 JSON', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect([400, 404, 414]).toContain(res.statusCode);
    expect(errorOf(res).statusCode).toBe(res.statusCode);
  });

  it('answers a wrong method with 404 JSON', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/coupons/validate' });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe('Diese Adresse gibt es nicht.');
  });

  it('slows down code guessing: 429 with Retry-After beyond 60 checks a minute per client', async () => {
    const guess = (i: number) =>
      app.inject({
        method: 'POST',
        url: '/api/coupons/validate',
        headers: { 'x-forwarded-for': '203.0.113.77' },
        payload: { code: `RATEN${i}` },
      });
    for (let i = 0; i < 60; i++) expect((await guess(i)).statusCode).toBe(404);
    const blocked = await guess(60);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorOf(blocked).message).toMatch(/Zu viele Gutschein-Versuche/);
    const otherClient = await app.inject({
      method: 'POST',
      url: '/api/coupons/validate',
      headers: { 'x-forwarded-for': '203.0.113.78' },
      payload: { code: 'AFTERWORK10' },
    });
    expect(otherClient.statusCode).toBe(200);
  });

  it('ignores prototype-pollution keys in bodies', async () => {
    const res = await post('{"code":"AFTERWORK10","__proto__":{"admin":true}}');
    expect([200, 400]).toContain(res.statusCode);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('error shape', () => {
  it('keeps the message and extra fields of apiError()', () => {
    expect(toApiErrorBody(apiError(409, 'Preise haben sich geändert.', { lines: [] }))).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Preise haben sich geändert.',
      lines: [],
    });
  });

  it("replaces Nest's English texts with German ones", () => {
    expect(toApiErrorBody(new NotFoundException('Cannot GET /api/x')).message).toBe(
      'Diese Adresse gibt es nicht.',
    );
    expect(toApiErrorBody(new HttpException('Forbidden', 403)).message).toBe(
      'Das ist nicht erlaubt.',
    );
  });

  it('turns catalog outages into 503 with a German message', () => {
    expect(toApiErrorBody(new CatalogError('timeout', 'WooCommerce: slow'))).toMatchObject({
      statusCode: 503,
      error: 'Service Unavailable',
      message: expect.stringMatching(/nicht erreichbar/),
    });
  });

  it('answers unexpected errors with a generic 500, logged with the request id, no stack', () => {
    const logger = { log: jest.fn(), warn: jest.fn(), error: jest.fn() };
    const reply = jest.fn();
    const sut = new ApiExceptionFilter({ httpAdapter: { reply } } as never, logger);
    const host = {
      switchToHttp: () => ({
        getRequest: () => ({ id: 'req-42', method: 'GET', url: '/api/events' }),
        getResponse: () => 'response',
      }),
    };
    sut.catch(new TypeError("Cannot read properties of undefined (reading 'x')"), host as never);

    const [, body, status] = reply.mock.calls[0] as [unknown, Record<string, unknown>, number];
    expect(status).toBe(500);
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Da ist bei uns etwas schiefgelaufen. Bitte versuche es später erneut.',
    });
    expect(JSON.stringify(body)).not.toMatch(/TypeError|reading/);
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ reqId: 'req-42', err: expect.stringContaining('reading') }),
      expect.stringContaining('TypeError'),
      'ApiExceptionFilter',
    );
  });
});
