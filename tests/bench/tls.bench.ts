import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type ClientRequest, get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet, type RequestOptions } from 'node:https';
import { type ConnectionOptions, createSecureContext } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStackCli } from '../stack/stack-support.js';
import { freePorts } from '../support/site.js';
import { makeTestCertificate } from '../support/test-certificate.js';
import { median } from './report.js';

/**
 * HTTPS against plain HTTP through the same nginx (README "HTTPS"): what a visitor's first
 * request costs, connection included. Each sample opens a new connection (no keep-alive,
 * no TLS session to resume), sends GET / as a browser would and reads the whole page; the
 * two schemes alternate, so both see the machine alike. HTTPS verifies the chain against
 * the test CA as a browser verifies a real one.
 *
 * In production plain HTTP only redirects. For the comparison the stack's nginx, configured
 * for HTTPS, gets the site on its plain port too (its redirecting server block replaced by
 * the site's, then a reload): one nginx, one configuration of the site, two schemes.
 */

export const TLS_BUDGET_RATIO = 1.3;

export interface TlsFigures {
  /** Per run: the median of that run's samples, in ms. */
  http: number[];
  https: number[];
  /** Per run: its HTTPS median over its HTTP median, and the difference in ms. */
  ratio: number[];
  extra: number[];
  /** Per run: a returning visitor's new connection, resuming its TLS session (no budget). */
  resumed: number[];
  resumedRatio: number[];
  samples: number;
  bad: number;
}

const HEADERS = {
  'user-agent':
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  accept: 'text/html',
  'accept-encoding': 'gzip',
};

/** One request on a new connection: ms from the connect to the last byte, and the status. */
function timed(
  start: (done: (res: IncomingMessage) => void) => ClientRequest,
): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = start((res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** The site on the plain port as well: the redirecting server block becomes the site's. */
function servePlainToo(dir: string, port: number): void {
  const file = join(dir, 'conf', 'conf.d', 'server.conf');
  const conf = readFileSync(file, 'utf8');
  // The first top-level server block is the redirecting one (https.server.template).
  const redirecting = /^server \{\n[\s\S]*?return 301 [\s\S]*?^\}\n/m;
  if (!redirecting.test(conf)) throw new Error(`no redirecting server block in ${file}`);
  writeFileSync(
    file,
    conf.replace(
      redirecting,
      `server {\n    listen 127.0.0.1:${port} default_server;\n    server_name _;\n    include conf.d/site.locations;\n}\n`,
    ),
  );
  const nginx = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
  const reload = spawnSync(nginx, ['-p', dir, '-c', 'conf/nginx.conf', '-s', 'reload'], {
    encoding: 'utf8',
  });
  if (reload.status !== 0) throw new Error(`nginx reload failed: ${reload.stderr}`);
}

export async function measureTls(
  staticDir: string,
  runs: number,
  samples = 60,
): Promise<TlsFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-bench-tls-'));
  const cert = makeTestCertificate(dir);
  const tlsPort = (await freePorts(1))[0]!;
  const stack = await startStackCli({
    STATIC_DIR: staticDir,
    TLS_CERT_FILE: cert.certFile,
    TLS_KEY_FILE: cert.keyFile,
    STACK_TLS_PORT: String(tlsPort),
    PUBLIC_URL: `https://localhost:${tlsPort}`,
  });
  const httpPort = Number(new URL(stack.url).port);
  // One trust store for every sample, as a browser has: no CA parsed per connection.
  const secureContext = createSecureContext({ ca: cert.caPem });
  servePlainToo(stack.dir, httpPort);
  // Both by address (no name lookup in either); the leaf names 127.0.0.1 as well.
  const overHttp = () =>
    timed((done) =>
      httpGet(
        { host: '127.0.0.1', port: httpPort, path: '/', headers: HEADERS, agent: false },
        done,
      ),
    );
  const httpsOptions: RequestOptions & ConnectionOptions = {
    host: '127.0.0.1',
    port: tlsPort,
    path: '/',
    headers: HEADERS,
    agent: false,
    secureContext,
    servername: 'localhost',
  };
  const overHttps = () => timed((done) => httpsGet(httpsOptions, done));
  // A returning visitor: the session of its previous connection (TLS 1.3 tickets, kept in
  // nginx's shared session cache; each is good for one resumption, so the newest is used).
  let session: Buffer | undefined;
  const overHttpsResumed = async () => {
    const result = await timed((done) => {
      const options: RequestOptions & ConnectionOptions = { ...httpsOptions, session };
      const req = httpsGet(options, done);
      req.once('socket', (socket) => socket.on('session', (s: Buffer) => (session = s)));
      return req;
    });
    return result;
  };
  const figures: TlsFigures = {
    http: [],
    https: [],
    ratio: [],
    extra: [],
    resumed: [],
    resumedRatio: [],
    samples,
    bad: 0,
  };
  try {
    // The reload's new workers take over within a moment; until then the old ones redirect.
    const deadline = Date.now() + 10_000;
    while ((await overHttp()).status !== 200) {
      if (Date.now() > deadline) throw new Error('the plain port still does not serve the site');
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < 20; i += 1) {
      await overHttp();
      await overHttps();
      await overHttpsResumed();
    }
    for (let run = 0; run < runs; run += 1) {
      const http: number[] = [];
      const https: number[] = [];
      const resumed: number[] = [];
      for (let i = 0; i < samples; i += 1) {
        const a = await overHttp();
        const b = await overHttps();
        const c = await overHttpsResumed();
        if (a.status !== 200 || b.status !== 200 || c.status !== 200) figures.bad += 1;
        http.push(a.ms);
        https.push(b.ms);
        resumed.push(c.ms);
      }
      figures.http.push(median(http));
      figures.https.push(median(https));
      figures.ratio.push(median(https) / median(http));
      figures.extra.push(median(https) - median(http));
      figures.resumed.push(median(resumed));
      figures.resumedRatio.push(median(resumed) / median(http));
    }
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
