import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, REPO_ROOT } from '../support/site.js';
import { staticDir } from './stack-support.js';

// Issue #6: when an API process is down, nginx itself answers: JSON with a German message
// for /api, a German HTML page for pages, and the static files keep being served.

let nginx: ChildProcess;
let url: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'awhh-nginx-down-'));
  const [port, productsPort, checkoutPort] = await freePorts(3);
  // Nothing listens on the upstream ports: both API services are "down".
  const options = {
    dir,
    port,
    host: '127.0.0.1',
    productsPort,
    checkoutPort,
    staticRoot: staticDir(),
  };
  // scripts/stack.mjs is ESM; a child node renders the same config `npm run stack` uses.
  const script = `import { prepareNginx } from ${JSON.stringify(join(REPO_ROOT, 'scripts', 'stack.mjs'))};
    console.log(JSON.stringify(prepareNginx(${JSON.stringify(options)})));`;
  const rendered = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (rendered.status !== 0) throw new Error(rendered.stderr);
  const args = JSON.parse(rendered.stdout.trim().split('\n').pop()!) as string[];
  nginx = spawn(process.env.NGINX_BIN ?? '/usr/sbin/nginx', args, { stdio: 'ignore' });
  url = `http://127.0.0.1:${port}`;
  // Any answer at all (here a 502) means nginx is listening.
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/api/health`).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 30_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx.once('exit', r));
    nginx.kill('SIGQUIT');
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
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
