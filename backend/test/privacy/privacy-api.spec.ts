import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../support/test-app.js';

// The privacy page reads the periods here when it is opened in the browser; the server
// renderer reads the same configuration (site-data-source.ts).
describe('GET /api/privacy', () => {
  let app: NestFastifyApplication | null = null;

  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('answers the periods the erasure job applies, PERSONAL_DATA_DAYS_AFTER_EVENT included', async () => {
    app = await createTestApp({ PERSONAL_DATA_DAYS_AFTER_EVENT: '45' });
    const res = await app.inject({ method: 'GET', url: '/api/privacy' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      unpaidCheckoutDays: 7,
      personalDataDaysAfterEvent: 45,
      contactMessageDays: 90,
    });
    expect(res.headers.etag).toBeTruthy();
  });
});
