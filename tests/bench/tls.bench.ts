import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type ClientRequest, get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet, type RequestOptions } from 'node:https';
import { type ConnectionOptions, createSecureContext } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { startStackCli } from '../stack/stack-support.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, VISITOR_USER_AGENT } from '../support/browser.js';
import { freePorts } from '../support/site.js';
import { makeTestCertificate } from '../support/test-certificate.js';
import { median } from './report.js';

/**
 * HTTPS against plain HTTP through the same nginx (docs/operations.md "HTTPS"), two ways.
 *
 * What a visitor gets, the budget's measure: Chromium opens the site's first page (and an
 * event page) in a new browser context per sample, so every sample pays a fresh TCP
 * connection and TLS handshake and has no HTTP cache, and the Navigation Timing API gives the
 * time from the navigation's start to the end of its load event, with the document's connect
 * (TCP, and TLS where there is one) and its first byte beside it. Chromium trusts the test
 * certificate by its key (SPKI pin), as tests/stack/tls.spec.ts does. HTTPS speaks HTTP/2 as
 * it does for visitors; plain HTTP is HTTP/1.1, as browsers speak it.
 *
 * The handshake's CPU cost on loopback, for information: one GET / on a new connection from
 * Node (no keep-alive, no TLS session to resume), reading the whole page. Over loopback there
 * is no round trip for the handshake to hide behind, so its ratio is the handshake's CPU time
 * against a request that costs about a millisecond; HTTPS verifies the chain against the
 * test CA as a browser verifies a real one.
 *
 * Both ways alternate the two schemes, so both see the machine alike. In production plain
 * HTTP only redirects. For the comparison the stack's nginx, configured for HTTPS, gets the
 * site on its plain port too (its redirecting server block replaced by the site's, then a
 * reload): one nginx, one configuration of the site, two schemes.
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
  /** A visitor's first page in Chromium, per page. */
  pages: PageLoadFigures[];
  /** Navigations per page and scheme in each run. */
  browserSamples: number;
  /** Navigations that did not answer 200, or did not open a new connection of their own. */
  browserBad: number;
  /** The protocols the documents came over (Navigation Timing's nextHopProtocol, and TLS's). */
  protocols: { http: string[]; https: string[] };
  /** Resources loaded from another origin than the page's, should there be any. */
  elsewhere: string[];
}

/** One scheme's figures for one page: per run, the median of that run's navigations, in ms. */
export interface SchemeLoadFigures {
  /** startTime → loadEventEnd. */
  load: number[];
  /** connectEnd − connectStart: TCP, and over HTTPS the TLS handshake. */
  connect: number[];
  /** startTime → responseStart: the document's first byte. */
  firstByte: number[];
}

export interface PageLoadFigures {
  name: string;
  path: string;
  http: SchemeLoadFigures;
  https: SchemeLoadFigures;
  /** Per run: HTTPS load median over HTTP load median, and the difference in ms. */
  ratio: number[];
  extra: number[];
}

interface Navigation {
  status: number;
  load: number;
  connect: number;
  firstByte: number;
  /** Chromium's id of the document's connection (its socket's, unique in the browser). */
  connection: number | null;
  protocol: string;
  /** Resources the page loaded from another origin (none expected: they would skew both). */
  elsewhere: string[];
}

/**
 * One visitor's first navigation to url: a new context (own connections, TLS session cache
 * and HTTP cache), the page loaded, its Navigation Timing entry read once the load event ended.
 */
async function visit(browser: Browser, url: string): Promise<Navigation> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    userAgent: VISITOR_USER_AGENT,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  try {
    const page = await context.newPage();
    // The document's connection as Chromium's network stack saw it. Navigation Timing shows
    // no connect at all when the browser's own preconnect at the navigation's start had the
    // socket ready (and Chromium then calls an HTTP/1.1 socket "reused"), so the socket's id
    // tells whether an earlier navigation had it.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    let connection: number | undefined;
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Document') connection = event.response.connectionId;
    });
    const response = await page.goto(url, { waitUntil: 'load' });
    const timing = await (
      await page.waitForFunction(() => {
        const entry = performance.getEntriesByType('navigation')[0] as
          PerformanceNavigationTiming | undefined;
        if (!entry || entry.loadEventEnd <= 0) return null;
        return {
          startTime: entry.startTime,
          connectStart: entry.connectStart,
          connectEnd: entry.connectEnd,
          secureConnectionStart: entry.secureConnectionStart,
          responseStart: entry.responseStart,
          loadEventEnd: entry.loadEventEnd,
          protocol: entry.nextHopProtocol,
          elsewhere: performance
            .getEntriesByType('resource')
            .filter((r) => new URL(r.name).origin !== location.origin)
            .map((r) => r.name),
        };
      })
    ).jsonValue();
    if (!timing) throw new Error(`no navigation timing for ${url}`);
    const security = await response?.securityDetails();
    return {
      status: response?.status() ?? 0,
      load: timing.loadEventEnd - timing.startTime,
      connect: timing.connectEnd - timing.connectStart,
      firstByte: timing.responseStart - timing.startTime,
      connection: connection ?? null,
      protocol: security?.protocol ? `${timing.protocol}, ${security.protocol}` : timing.protocol,
      elsewhere: timing.elsewhere,
    };
  } finally {
    await context.close();
  }
}

const schemeFigures = (): SchemeLoadFigures => ({ load: [], connect: [], firstByte: [] });

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
  browserSamples = 30,
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
    pages: [],
    browserSamples,
    browserBad: 0,
    protocols: { http: [], https: [] },
    elsewhere: [],
  };
  let browser: Browser | undefined;
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

    // A visitor's first page in Chromium. Both origins by address: no name lookup, and no
    // HSTS carried from the HTTPS origin to the plain one (browsers ignore it for addresses).
    const httpOrigin = `http://127.0.0.1:${httpPort}`;
    const httpsOrigin = `https://127.0.0.1:${tlsPort}`;
    const events = (await (await fetch(`${httpOrigin}/api/events`)).json()) as {
      slug: string;
      past: boolean;
    }[];
    const event = events.find((e) => !e.past) ?? events[0];
    if (!event) throw new Error('the stack lists no event');
    const pages: [string, string][] = [
      ['/', '/'],
      ['event page', `/events/${event.slug}`],
    ];
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${cert.spkiPin}`],
    });
    const seen = { http: new Set<string>(), https: new Set<string>() };
    // Every navigation must have had a connection of its own (no socket from an earlier one).
    const connections = new Set<number>();
    const take = (navigation: Navigation, scheme: 'http' | 'https') => {
      seen[scheme].add(navigation.protocol);
      const fresh = navigation.connection !== null && !connections.has(navigation.connection);
      if (navigation.connection !== null) connections.add(navigation.connection);
      for (const url of navigation.elsewhere) {
        if (!figures.elsewhere.includes(url)) figures.elsewhere.push(url);
      }
      if (navigation.status !== 200 || !fresh) figures.browserBad += 1;
      return navigation;
    };
    // Warm-up: nginx's microcache and workers, the renderer, Chromium's own first start.
    for (let i = 0; i < 3; i += 1) {
      for (const [, path] of pages) {
        await visit(browser, httpOrigin + path);
        await visit(browser, httpsOrigin + path);
      }
    }
    for (const [name, path] of pages) {
      figures.pages.push({
        name,
        path,
        http: schemeFigures(),
        https: schemeFigures(),
        ratio: [],
        extra: [],
      });
    }
    for (let run = 0; run < runs; run += 1) {
      const samplesOf = pages.map(() => ({ http: [] as Navigation[], https: [] as Navigation[] }));
      for (let i = 0; i < browserSamples; i += 1) {
        for (const [k, [, path]] of pages.entries()) {
          // Which scheme goes first alternates too, so neither always follows the other.
          if (i % 2 === 0) {
            samplesOf[k]!.http.push(take(await visit(browser, httpOrigin + path), 'http'));
            samplesOf[k]!.https.push(take(await visit(browser, httpsOrigin + path), 'https'));
          } else {
            samplesOf[k]!.https.push(take(await visit(browser, httpsOrigin + path), 'https'));
            samplesOf[k]!.http.push(take(await visit(browser, httpOrigin + path), 'http'));
          }
        }
      }
      for (const [k, page] of figures.pages.entries()) {
        for (const scheme of ['http', 'https'] as const) {
          const list = samplesOf[k]![scheme];
          page[scheme].load.push(median(list.map((n) => n.load)));
          page[scheme].connect.push(median(list.map((n) => n.connect)));
          page[scheme].firstByte.push(median(list.map((n) => n.firstByte)));
        }
        page.ratio.push(page.https.load.at(-1)! / page.http.load.at(-1)!);
        page.extra.push(page.https.load.at(-1)! - page.http.load.at(-1)!);
      }
    }
    figures.protocols = { http: [...seen.http], https: [...seen.https] };
  } finally {
    await browser?.close();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
