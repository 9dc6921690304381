import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type SecureVersion } from 'node:tls';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, VISITOR_USER_AGENT } from '../support/browser.js';
import { freePorts } from '../support/site.js';
import { makeTestCertificate, type TestCertificate } from '../support/test-certificate.js';
import { startStackCli, type RunningStack } from './stack-support.js';

// HTTPS in nginx (docs/operations.md "HTTPS"): `npm run stack` with TLS_CERT_FILE and TLS_KEY_FILE serves
// the site over TLS with the container's server block (nginx/templates/https.server.template),
// and plain HTTP redirects there. The certificate is made here with openssl: a test CA and a
// leaf for localhost, as README describes for the stack.

let stack: RunningStack;
let certDir: string;
let tlsPort: number;
let cert: TestCertificate;
let caPem: string;
let origin: string;

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'awhh-tls-'));
  cert = makeTestCertificate(certDir);
  caPem = cert.caPem;
  tlsPort = (await freePorts(1))[0]!;
  origin = `https://localhost:${tlsPort}`;
  stack = await startStackCli({
    TLS_CERT_FILE: cert.certFile,
    TLS_KEY_FILE: cert.keyFile,
    STACK_TLS_PORT: String(tlsPort),
    PUBLIC_URL: origin,
  });
}, 90_000);

afterAll(async () => {
  if (stack) expect(await stack.stop()).toBe(0);
  rmSync(certDir, { recursive: true, force: true });
});

interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET over TLS that checks the certificate against the test CA, as a browser trusting it would. */
function httpsGet(path: string, headers: Record<string, string> = {}): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${origin}${path}`, { ca: caPem, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A GET over plain HTTP with any headers (fetch would not send a forged Host). */
function plainGet(path: string, headers: Record<string, string>): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${stack.url}${path}`, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A bare TLS handshake with the given protocol range; resolves the outcome, never rejects. */
function handshake(options: {
  min: SecureVersion;
  max: SecureVersion;
  ciphers?: string;
  alpn?: string[];
}): Promise<
  { ok: true; protocol: string; alpn: string | false | null } | { ok: false; code: string }
> {
  return new Promise((resolve) => {
    const socket = connect({
      host: '127.0.0.1',
      port: tlsPort,
      servername: 'localhost',
      ca: caPem,
      minVersion: options.min,
      maxVersion: options.max,
      // Node's own floor (SECLEVEL 1 forbids TLS 1.1): lowered, so that the refusal measured
      // is the server's and not this client's.
      ciphers: options.ciphers ?? 'DEFAULT@SECLEVEL=0',
      ALPNProtocols: options.alpn,
    });
    socket.once('secureConnect', () => {
      resolve({ ok: true, protocol: socket.getProtocol() ?? '', alpn: socket.alpnProtocol });
      socket.end();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      resolve({ ok: false, code: error.code ?? error.message });
      socket.destroy();
    });
  });
}

describe('plain HTTP beside HTTPS', () => {
  it('redirects every page and API path to the same path on the site’s https origin, without HSTS', async () => {
    for (const path of ['/', '/einlass', '/events?seite=2', '/api/events']) {
      // A forged Host and X-Forwarded-Proto change neither the target nor the missing HSTS.
      const res = await plainGet(path, {
        host: 'angreifer.example',
        'x-forwarded-proto': 'https',
      });
      expect([path, res.status, res.headers.location]).toEqual([path, 301, `${origin}${path}`]);
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it("answers certbot's HTTP-01 challenge from the webroot and the container's healthcheck, unredirected", async () => {
    const challenges = join(stack.dir, 'acme', '.well-known', 'acme-challenge');
    mkdirSync(challenges, { recursive: true });
    writeFileSync(join(challenges, 'Tok3n_-x'), 'Tok3n_-x.schluessel');
    const challenge = await fetch(`${stack.url}/.well-known/acme-challenge/Tok3n_-x`, {
      redirect: 'manual',
    });
    expect(challenge.status).toBe(200);
    expect(await challenge.text()).toBe('Tok3n_-x.schluessel');
    expect(challenge.headers.get('strict-transport-security')).toBeNull();
    const missing = await fetch(`${stack.url}/.well-known/acme-challenge/fehlt`, {
      redirect: 'manual',
    });
    expect(missing.status).toBe(404);
    const health = await fetch(`${stack.url}/_nginx/health`, { redirect: 'manual' });
    expect(health.status).toBe(200);
  });
});

describe('HTTPS', () => {
  it('serves the site with a certificate chain the CA verifies, HSTS and a request id', async () => {
    const res = await httpsGet('/api/events');
    expect(res.status).toBe(200);
    expect(res.headers['x-served-by']).toBe('products');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    const page = await httpsGet('/einlass');
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toMatch(/^max-age=31536000/);
    expect(page.headers['permissions-policy']).toContain('camera=(self)');
  });

  it('refuses TLS 1.0 and 1.1, and TLS 1.2 without forward secrecy or AEAD', async () => {
    for (const version of ['TLSv1', 'TLSv1.1'] as const) {
      const outcome = await handshake({ min: version, max: version });
      // The server's "protocol version" alert, not a refusal on this side.
      expect([version, outcome]).toEqual([
        version,
        { ok: false, code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' },
      ]);
    }
    for (const cipher of ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA384']) {
      const outcome = await handshake({ min: 'TLSv1.2', max: 'TLSv1.2', ciphers: cipher });
      expect([cipher, outcome.ok]).toEqual([cipher, false]);
    }
  });

  it('accepts TLS 1.2 with an intermediate cipher and TLS 1.3, and offers HTTP/2', async () => {
    expect(
      await handshake({
        min: 'TLSv1.2',
        max: 'TLSv1.2',
        ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256',
        alpn: ['http/1.1'],
      }),
    ).toEqual({ ok: true, protocol: 'TLSv1.2', alpn: 'http/1.1' });
    expect(
      await handshake({
        min: 'TLSv1.3',
        max: 'TLSv1.3',
        ciphers: 'DEFAULT',
        alpn: ['h2', 'http/1.1'],
      }),
    ).toEqual({ ok: true, protocol: 'TLSv1.3', alpn: 'h2' });
  });
});

describe('the door page in Chromium over HTTPS', () => {
  let browser: Browser;

  beforeAll(async () => {
    // Chromium trusts exactly this certificate's key (as if its CA were installed): a page
    // with a certificate error would get no service worker.
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        ...CHROMIUM_ARGS,
        `--ignore-certificate-errors-spki-list=${cert.spkiPin}`,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('is a secure context with the camera allowed, installs its service worker and logs no error', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      userAgent: VISITOR_USER_AGENT,
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    });
    await context.grantPermissions(['camera'], { origin });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      // Plain HTTP first: the browser follows the redirect to the https origin.
      const response = await page.goto(`${stack.url}/einlass`);
      expect(response?.status()).toBe(200);
      expect(page.url()).toBe(`${origin}/einlass`);
      expect(await response?.headerValue('strict-transport-security')).toMatch(/^max-age=/);
      await page.getByRole('heading', { level: 1 }).first().waitFor();

      const state = await page.evaluate(async () => {
        const camera = await navigator.permissions.query({ name: 'camera' as PermissionName });
        const registration = await Promise.race([
          navigator.serviceWorker.ready,
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
        ]);
        return {
          secure: window.isSecureContext,
          protocol: location.protocol,
          camera: camera.state,
          scope: registration?.scope ?? null,
          script: registration?.active?.scriptURL ?? null,
        };
      });
      expect(state).toEqual({
        secure: true,
        protocol: 'https:',
        camera: 'granted',
        scope: `${origin}/einlass`,
        script: `${origin}/einlass-sw.js`,
      });
      await page.screenshot({ path: join(stack.dir, 'einlass-https.png') });
      if (process.env.TLS_SCREENSHOT) {
        writeFileSync(
          process.env.TLS_SCREENSHOT,
          readFileSync(join(stack.dir, 'einlass-https.png')),
        );
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
