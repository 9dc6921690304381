import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { REPO_ROOT } from '../support/site.js';

// CI validates the compose file and the Dockerfiles statically (no Docker engine).

const DOCKERFILES = ['backend/Dockerfile', 'nginx/Dockerfile'];

describe.each(DOCKERFILES)('%s', (file) => {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('passes the Dockerfile linter without problems', async () => {
    const problems = await validate(text);
    expect(problems.map((p) => `${p.range.start.line + 1}: ${p.message}`)).toEqual([]);
  });

  it('is multi-stage on pinned base images', () => {
    const froms = instructions.filter((l) => /^FROM /i.test(l));
    expect(froms.length).toBeGreaterThan(1);
    for (const from of froms) {
      const image = from.split(/\s+/)[1]!;
      // A stage name, or an image with an explicit version tag (never "latest").
      if (!image.includes(':')) expect(froms.some((f) => f.endsWith(` AS ${image}`))).toBe(true);
      else expect(image).toMatch(/:\d+\.\d+/);
    }
  });

  it('runs as a non-root user with a healthcheck', () => {
    const users = instructions.filter((l) => /^USER /i.test(l));
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/USER (root|0)\b/);
    expect(instructions.some((l) => /^HEALTHCHECK /i.test(l))).toBe(true);
    // `npm ci` fails with this lockfile: it records no other platforms' optional packages
    // (`@swc/core-darwin-arm64` …), which `npm ci` insists on; the images use `npm install`.
    expect(instructions.join('\n')).not.toMatch(/npm ci\b/);
  });
});

describe('docker-compose.yml', () => {
  const compose = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
  const dockerCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  const haveCompose = dockerCompose.status === 0;

  (haveCompose ? it : it.skip)('validates with docker-compose config', () => {
    const res = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
  });

  (haveCompose ? it : it.skip)('runs the services the way npm run stack does', () => {
    const res = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    const config = res.stdout;
    expect(config).toMatch(/MODULES: products/);
    expect(config).toMatch(/MODULES: checkout/);
    expect(config).toMatch(/STATIC_DIR: 'off'|STATIC_DIR: "off"|STATIC_DIR: off/);
    expect(config).toMatch(/condition: service_healthy/);
  });

  it('the API services trust X-Forwarded-For from nginx alone: its fixed address on the subnet', () => {
    const nginxAddress = /ipv4_address: ([\d.]+)/.exec(compose)?.[1];
    expect(nginxAddress).toBeDefined();
    const trusted = [...compose.matchAll(/TRUST_PROXY: (\S+)/g)].map((m) => m[1]);
    expect(trusted).toEqual([nginxAddress, nginxAddress]);
    // Nobody else is handed nginx's address: the others draw from ip_range.
    const range = /ip_range: ([\d.]+)\/(\d+)/.exec(compose);
    expect(range).not.toBeNull();
    expect(nginxAddress!.split('.').slice(0, 3)).toEqual(range![1]!.split('.').slice(0, 3));
    expect(Number(nginxAddress!.split('.')[3])).toBeLessThan(Number(range![1]!.split('.')[3]));
  });

  it('publishes only the nginx port', () => {
    const published = compose.match(/^\s{4}ports:/gm) ?? [];
    expect(published).toHaveLength(1);
    expect(compose).toMatch(/nginx:\n(?:.*\n)*?\s{4}ports:/);
  });
});
