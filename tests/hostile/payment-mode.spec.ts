import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT, startSite, type RunningSite } from '../support/site.js';

/**
 * A deploy whose `.env` lost STRIPE_SECRET_KEY must not turn into a shop where anyone
 * "pays" on the test provider's page and gets real tickets. The built process as
 * `npm start` runs it, with the images' NODE_ENV=production.
 */

const MAIN = join(REPO_ROOT, 'backend', 'dist', 'main.js');
const SIGNING_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** Runs the built process until it exits on its own (or 20 s pass); its code and output. */
async function runUntilExit(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'awhh-payment-mode-'));
  const child = spawn(process.execPath, [MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dataDir, 'awhh.db')}`,
      STATIC_DIR: join(REPO_ROOT, 'frontend', 'dist'),
      WOOCOMMERCE_URL: '',
      WOOCOMMERCE_KEY: '',
      WOOCOMMERCE_SECRET: '',
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      PAYMENT_PROVIDER: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  clearTimeout(timer);
  rmSync(dataDir, { recursive: true, force: true });
  return { code, output };
}

describe('payments only on purpose (npm start, NODE_ENV=production)', () => {
  it('without a Stripe key the process refuses to start and names STRIPE_SECRET_KEY and PAYMENT_PROVIDER=test', async () => {
    const { code, output } = await runUntilExit({
      NODE_ENV: 'production',
      TICKET_SIGNING_KEY: SIGNING_KEY,
    });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toMatch(/STRIPE_SECRET_KEY is required in production/);
    expect(output).toContain('PAYMENT_PROVIDER=test');
    expect(output).not.toMatch(/listening on/);
  });

  it('without a ticket signing key it refuses too, and says how to make one', async () => {
    const { code, output } = await runUntilExit({
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'test',
    });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toMatch(/TICKET_SIGNING_KEY is required in production/);
    expect(output).toContain('openssl genpkey -algorithm ed25519');
  });

  describe('a staging site: PAYMENT_PROVIDER=test', () => {
    let site: RunningSite;

    beforeAll(async () => {
      site = await startSite({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'test',
        TICKET_SIGNING_KEY: SIGNING_KEY,
        CHECKIN_CODE: 'Cgub-Ua9y-Xe7r-3wk2',
      });
    });
    afterAll(async () => {
      await site?.stop();
    });

    it('starts and says at start-up that it is a test site', () => {
      expect(site.logs()).toMatch(/Testmodus: this is a test site/);
    });

    it.each(['/', '/cart', '/webhook-test', '/gibt-es-nicht'])(
      'the page %s carries the Testmodus bar in its HTML',
      async (path) => {
        const html = await (await fetch(`${site.url}${path}`)).text();
        expect(html).toMatch(/<html class="test-site"/);
        expect(html).toContain(
          '<aside class="test-mode-bar" aria-label="Testmodus"><p>Testmodus – keine echten Zahlungen</p></aside><div id="root">',
        );
      },
    );

    it.each([
      ['GET', '/api/checkout/webhook/events'],
      ['GET', '/api/waitlist/counts'],
      ['POST', '/api/checkout/webhook/test'],
    ])('the internal page data %s %s tell the public nothing', async (method, path) => {
      const res = await fetch(`${site.url}${path}`, { method });
      expect(res.status).toBe(404);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({
        statusCode: 404,
        message: 'Diese interne Testseite ist im Produktivbetrieb abgeschaltet.',
      });
      expect(body).not.toMatch(/"mode"|"events"|"rows"|"outcome"/);
    });

    it('the test mailbox shows nobody the mails and their ticket links', async () => {
      for (const path of ['/api/mail-test', '/api/mail-test/messages']) {
        const res = await fetch(`${site.url}${path}`);
        expect(res.status).toBe(404);
        expect(await res.text()).not.toMatch(/checkinCode|"subject"/);
      }
    });
  });
});
