import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { freePorts, REPO_ROOT } from '../support/site.js';
import { makeTestCertificate, type TestCertificate } from '../support/test-certificate.js';
import { staticDir } from './stack-support.js';

// The nginx image's HTTPS switch, nginx/entrypoint/40-awhh-tls.sh, run as the image runs it:
// after the templates are rendered into conf.d (here by scripts/stack.mjs, with both server
// blocks written as the image's envsubst writes them) and before nginx starts, with
// Debian's nginx standing in for the image's. Its background loop looks every second here.

const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const SCRIPT = join(REPO_ROOT, 'nginx', 'entrypoint', '40-awhh-tls.sh');

let dir: string;
let confD: string;
let live: string;
let nginxArgs: string[];
let port: number;
let tlsPort: number;
let certA: TestCertificate;
let certB: TestCertificate;
let entrypoint: ChildProcess | undefined;
let nginx: ChildProcess | undefined;

/** Renders the nginx tree as `npm run stack` does, once per server block, in a child node. */
function prepare(options: Record<string, unknown>): string[] {
  const script = `import { prepareNginx } from ${JSON.stringify(join(REPO_ROOT, 'scripts', 'stack.mjs'))};
    console.log(JSON.stringify(prepareNginx(${JSON.stringify(options)})));`;
  const rendered = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (rendered.status !== 0) throw new Error(rendered.stderr);
  return JSON.parse(rendered.stdout.trim().split('\n').pop()!) as string[];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'awhh-tls-entrypoint-'));
  const [p, tp, productsPort, checkoutPort] = await freePorts(4);
  port = p!;
  tlsPort = tp!;
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  certA = makeTestCertificate(join(dir, 'a'));
  certB = makeTestCertificate(join(dir, 'b'));
  // Where certbot keeps the certificate: empty until "issued".
  live = join(dir, 'live');
  mkdirSync(live);
  const base = {
    dir: join(dir, 'nginx'),
    port,
    host: '127.0.0.1',
    productsPort,
    checkoutPort,
    staticRoot: staticDir(),
  };
  const tls = {
    port: tlsPort,
    certFile: join(live, 'fullchain.pem'),
    keyFile: join(live, 'privkey.pem'),
    origin: `https://localhost:${tlsPort}`,
  };
  confD = join(base.dir, 'conf', 'conf.d');
  prepare(base);
  const httpServer = readFileSync(join(confD, 'server.conf'), 'utf8');
  nginxArgs = prepare({ ...base, tls });
  const httpsServer = readFileSync(join(confD, 'server.conf'), 'utf8');
  writeFileSync(join(confD, 'http.server'), httpServer);
  writeFileSync(join(confD, 'https.server'), httpsServer);
  unlinkSync(join(confD, 'server.conf'));
  // `nginx` on the script's PATH: Debian's, on this tree.
  mkdirSync(join(dir, 'bin'));
  const wrapper = join(dir, 'bin', 'nginx');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${NGINX_BIN} ${nginxArgs.map((a) => `'${a}'`).join(' ')} "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
}, 30_000);

afterAll(async () => {
  // The script's background loop runs in the process group the script was started in.
  if (entrypoint?.pid) {
    try {
      process.kill(-entrypoint.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx!.once('exit', r));
    nginx.kill('SIGQUIT');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

function entrypointLog(): string {
  return readFileSync(join(dir, 'entrypoint.log'), 'utf8');
}

/** The plain port's answer to /einlass: 301 with HTTPS, the site's own answer without. */
async function plainStatus(): Promise<number> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/einlass`, { redirect: 'manual' });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** The fingerprint of the certificate the TLS port presents, or null when it is closed. */
function presented(): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: tlsPort, rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? null);
      socket.end();
    });
    socket.once('error', () => resolve(null));
  });
}

const fingerprint = (cert: TestCertificate) =>
  new X509Certificate(readFileSync(cert.certFile)).fingerprint256;

async function until<T>(what: string, probe: () => Promise<T>, wanted: T): Promise<void> {
  const deadline = Date.now() + 15_000;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last === wanted) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: still ${String(last)}\n${entrypointLog()}`);
}

/** Puts a certificate and key where certbot would, as new files (a renewal's new mtime). */
function install(cert: TestCertificate, key: TestCertificate = cert): void {
  for (const [from, to] of [
    [cert.certFile, 'fullchain.pem'],
    [key.keyFile, 'privkey.pem'],
  ] as const) {
    rmSync(join(live, to), { force: true });
    copyFileSync(from, join(live, to));
  }
}

it('serves plain HTTP until the certificate exists, then HTTPS, follows a renewal and survives a broken one', async () => {
  const log = openSync(join(dir, 'entrypoint.log'), 'a');
  entrypoint = spawn('sh', [SCRIPT], {
    env: {
      ...process.env,
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      AWHH_CONF_D: confD,
      TLS_CERT_FILE: join(live, 'fullchain.pem'),
      TLS_KEY_FILE: join(live, 'privkey.pem'),
      TLS_LISTEN_PORT: String(tlsPort),
      ACME_WEBROOT: join(dir, 'nginx', 'acme'),
      TLS_WATCH_SECONDS: '1',
    },
    stdio: ['ignore', log, log],
    detached: true,
  });
  expect(await new Promise((r) => entrypoint!.once('exit', r))).toBe(0);
  // No certificate yet: the plain server block, and a line saying why.
  expect(readFileSync(join(confD, 'server.conf'), 'utf8')).toBe(
    readFileSync(join(confD, 'http.server'), 'utf8'),
  );
  expect(entrypointLog()).toMatch(/not readable; serving plain HTTP/);

  nginx = spawn(NGINX_BIN, nginxArgs, { stdio: 'ignore' });
  // The site's own answer (its upstreams are down here), not a redirect.
  await until('nginx on the plain port', plainStatus, 502);
  expect(await presented()).toBeNull();

  // certbot's first certificate: HTTPS within a few seconds, without a restart.
  install(certA);
  await until('HTTPS with the first certificate', presented, fingerprint(certA));
  expect(await plainStatus()).toBe(301);

  // The renewal: the new certificate, again without a restart.
  install(certB);
  await until('HTTPS with the renewed certificate', presented, fingerprint(certB));

  // A key that does not belong to the certificate: nginx would refuse it, so the site goes
  // back to plain HTTP rather than down.
  install(certA, certB);
  await until('plain HTTP after a broken certificate', plainStatus, 502);
  expect(entrypointLog()).toMatch(/nginx refuses .*; serving plain HTTP/);
  expect(nginx.exitCode).toBeNull();
}, 60_000);
