import { type LoneNginx, startNginxAlone } from './stack-support.js';

// When an API process is down, nginx itself answers: JSON with a German message
// for /api, a German HTML page for pages, and the static files keep being served.

let nginx: LoneNginx;
let url: string;

beforeAll(async () => {
  nginx = await startNginxAlone('down');
  url = nginx.url;
}, 30_000);

afterAll(async () => {
  await nginx?.stop();
});

describe('an API process is down', () => {
  it.each(['/api/events', '/api/checkout/session/cs_1', '/api/woocommerce/products'])(
    'GET %s answers 502 JSON with a German message',
    async (path) => {
      const res = await fetch(url + path);
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await res.json()) as { statusCode: number; error: string; message: string };
      expect(body).toMatchObject({ statusCode: 502, error: 'Bad Gateway' });
      expect(body.message).toMatch(/Bitte versuche es/);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    },
  );

  it('a page answers with the German maintenance page', async () => {
    const res = await fetch(url + '/events/irgendwas');
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('lang="de"');
    expect(html).toMatch(/nicht erreichbar|gleich wieder|Bitte versuche/);
  });
});
