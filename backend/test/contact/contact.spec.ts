import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  FakeCatalog,
  freshIp,
  inject,
  resetStore,
} from '../support/checkout-test-app.js';

jest.setTimeout(60_000);

const valid = {
  name: 'Erika Mustermann',
  email: 'erika@example.org',
  message: 'Gibt es beim nächsten Event eine Garderobe?',
  consent: true,
};

describe.each(API_DATABASES)('POST /api/contact (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await createTestApp({ databaseUrl: db.url, catalog: new FakeCatalog() });
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });
  beforeEach(async () => {
    await resetStore(app);
  });

  const send = (payload: unknown, ip = freshIp()) =>
    inject(app, {
      method: 'POST',
      url: '/api/contact',
      headers: { 'x-forwarded-for': ip },
      payload,
    });
  const stored = () =>
    app.get(StoreDatabase).db.selectFrom('contact_messages').selectAll().execute();

  it('stores a valid message', async () => {
    const res = await send(valid);
    expect(res.statusCode).toBe(202);
    expect(await stored()).toEqual([
      expect.objectContaining({ name: valid.name, email: valid.email, message: valid.message }),
    ]);
  });

  it('rejects invalid input with a German message', async () => {
    const res = await send({ ...valid, consent: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Datenschutzerklärung/);
    expect((await send({ ...valid, email: 'keine-adresse' })).json().message).toMatch(/E-Mail/);
    expect(await stored()).toHaveLength(0);
  });

  it('answers a filled honeypot like any other message and drops it', async () => {
    const res = await send({ ...valid, website: 'https://spam.example' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ received: true });
    expect(await stored()).toHaveLength(0);
  });

  it('limits messages per IP with a German 429', async () => {
    for (let i = 0; i < 5; i++) expect((await send(valid, '198.51.100.9')).statusCode).toBe(202);
    const limited = await send(valid, '198.51.100.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/mehrere Nachrichten/);
  });
});
