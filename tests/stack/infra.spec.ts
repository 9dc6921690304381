import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../../backend/src/config/config.js';
import { REPO_ROOT } from '../support/site.js';

// CI validates the compose file and the Dockerfiles statically (no Docker engine).

const DOCKERFILES = ['backend/Dockerfile', 'nginx/Dockerfile'];

/** A Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructionsOf(text: string): string[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/**
 * An image reference pinned to an exact release: x.y.z in its tag (PostgreSQL's releases
 * have two parts, 16.6), or a digest.
 */
const EXACT_IMAGE =
  /^(postgres:\d+\.\d+[\w.-]*|[\w./-]+:v?\d+\.\d+\.\d+[\w.-]*)(@sha256:[0-9a-f]{64})?$|^[\w./-]+@sha256:[0-9a-f]{64}$/;

/**
 * The user a stage of a Dockerfile runs as: its last USER, or the one of the stage it was
 * built FROM; "root" when none says otherwise (base images run as root unless they set one).
 */
function stageUser(text: string, target?: string): string {
  const users = new Map<string, string>();
  let stage = '';
  let last = '';
  for (const line of instructionsOf(text)) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) {
      stage = from[2] ?? from[1]!;
      users.set(stage, users.get(from[1]!) ?? 'root');
      last = stage;
      continue;
    }
    const user = /^USER\s+(\S+)/i.exec(line);
    if (user) users.set(stage, user[1]!);
  }
  return users.get(target ?? last) ?? 'root';
}

const isRoot = (user: string) => /^(root|0)(:|$)/.test(user);

describe.each(DOCKERFILES)('%s', (file) => {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const instructions = instructionsOf(text);

  it('passes the Dockerfile linter without problems', async () => {
    const problems = await validate(text);
    expect(problems.map((p) => `${p.range.start.line + 1}: ${p.message}`)).toEqual([]);
  });

  it('is multi-stage on base images pinned to an exact release', () => {
    const froms = instructions.filter((l) => /^FROM /i.test(l));
    expect(froms.length).toBeGreaterThan(1);
    for (const from of froms) {
      const image = from.split(/\s+/)[1]!;
      // A stage name, or an image with an exact version (never "latest", never a minor only).
      if (!image.includes(':')) expect(froms.some((f) => f.endsWith(` AS ${image}`))).toBe(true);
      else expect(image).toMatch(EXACT_IMAGE);
    }
  });

  it('runs as a non-root user with a healthcheck', () => {
    expect(isRoot(stageUser(text))).toBe(false);
    expect(instructions.some((l) => /^HEALTHCHECK /i.test(l))).toBe(true);
    // `npm ci` fails with this lockfile: it records no other platforms' optional packages
    // (`@swc/core-darwin-arm64` …), which `npm ci` insists on; the images use `npm install`.
    expect(instructions.join('\n')).not.toMatch(/npm ci\b/);
  });
});

interface Healthcheck {
  test?: string[] | string;
  disable?: boolean;
}
interface Service {
  image?: string;
  build?: { context: string; dockerfile?: string; target?: string };
  user?: string;
  read_only?: boolean;
  security_opt?: string[];
  cap_drop?: string[];
  cap_add?: string[];
  privileged?: boolean;
  mem_limit?: string;
  cpus?: number | string;
  healthcheck?: Healthcheck;
  ports?: string[];
  volumes?: string[];
  tmpfs?: string[];
  environment?: Record<string, string>;
  profiles?: string[];
  command?: string[] | string;
  depends_on?: Record<string, { condition: string }>;
}
interface Compose {
  version?: string;
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

describe('docker-compose.yml', () => {
  const compose = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
  // Merge keys (<<: *hardened) as compose reads them.
  const config = parse(compose, { merge: true }) as Compose;
  const services = Object.entries(config.services);
  const service = (name: string) => {
    const found = config.services[name];
    if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
    return found;
  };
  const healthText = (s: Service) => [s.healthcheck?.test ?? []].flat().join(' ');
  const mounts = (s: Service) => (s.volumes ?? []).map((v) => v.split(':'));
  const tmpfsPaths = (s: Service) => (s.tmpfs ?? []).map((t) => t.split(':')[0]);
  const dockerCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  const haveCompose = dockerCompose.status === 0;
  const profiles = ['--profile', 'letsencrypt', '--profile', 'monitoring'];

  (haveCompose ? it : it.skip)(
    'validates with docker-compose config, with and without its profiles',
    () => {
      for (const args of [[], profiles]) {
        const res = spawnSync(
          'docker-compose',
          ['-f', 'docker-compose.yml', ...args, 'config', '-q'],
          {
            cwd: REPO_ROOT,
            encoding: 'utf8',
            env: { ...process.env, BACKUP_PASSPHRASE: 'Backup-Passphrase-Test' },
          },
        );
        expect(res.stderr).toBe('');
        expect(res.status).toBe(0);
      }
    },
  );

  (haveCompose ? it : it.skip)(
    'refuses to run without BACKUP_PASSPHRASE: backups are encrypted by default',
    () => {
      const env = { ...process.env };
      delete env.BACKUP_PASSPHRASE;
      const res = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env,
      });
      expect(res.status).not.toBe(0);
      expect(res.stderr).toMatch(/BACKUP_PASSPHRASE/);
    },
  );

  (haveCompose ? it : it.skip)('runs the services the way npm run stack does', () => {
    const res = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, BACKUP_PASSPHRASE: 'Backup-Passphrase-Test' },
    });
    const config = res.stdout;
    expect(config).toMatch(/MODULES: products/);
    expect(config).toMatch(/MODULES: checkout/);
    expect(config).toMatch(/STATIC_DIR: 'off'|STATIC_DIR: "off"|STATIC_DIR: off/);
    expect(config).toMatch(/condition: service_healthy/);
  });

  it('builds every built service from a stage it names: the server, never the last stage by default', () => {
    const built = services.filter(([, s]) => s.build);
    expect(built.map(([n]) => n).sort()).toEqual(['backup', 'checkout', 'nginx', 'products']);
    for (const [name, s] of built) {
      const text = readFileSync(join(REPO_ROOT, s.build!.dockerfile ?? 'Dockerfile'), 'utf8');
      const stages = [...text.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]);
      expect([name, stages]).toEqual([name, expect.arrayContaining([s.build!.target])]);
    }
    for (const name of ['products', 'checkout']) {
      expect(service(name).build?.target).toBe('runtime');
      expect(service(name).image).toBe('awhh-backend:latest');
    }
    expect(service('backup').image).not.toBe('awhh-backend:latest');
  });

  describe('the app’s configuration reaches the containers', () => {
    // What compose does not pass on, and why.
    const NOT_FROM_COMPOSE: Record<string, string> = {
      NODE_ENV: 'the image sets production',
      HOST: 'the image sets 0.0.0.0',
      STRIPE_API_BASE: 'tests only: a fake Stripe',
    };
    // The products side's way to the checkout side.
    const PRODUCTS_ONLY = ['CHECKOUT_URL'];
    // Read by the checkout side alone: secrets stay out of products.
    const CHECKOUT_ONLY = [
      'TICKET_SIGNING_KEY',
      'SMTP_URL',
      'ORGANIZER_EMAIL',
      'CHECKIN_CODE',
      'ORGANIZER_CODE',
      'APPLE_PASS_TYPE_ID',
      'APPLE_TEAM_ID',
      'APPLE_PASS_CERT',
      'APPLE_PASS_KEY',
      'APPLE_PASS_KEY_PASSPHRASE',
      'APPLE_WWDR_CERT',
      'GOOGLE_WALLET_ISSUER_ID',
      'GOOGLE_WALLET_SERVICE_ACCOUNT',
    ];
    const passed = (name: string) => Object.keys(service(name).environment ?? {});

    it('passes every variable of the schema to the API services that read it', () => {
      expect(CONFIG_VARIABLES.length).toBeGreaterThan(30);
      for (const variable of CONFIG_VARIABLES) {
        if (variable in NOT_FROM_COMPOSE) continue;
        if (PRODUCTS_ONLY.includes(variable)) {
          expect([variable, passed('products')]).toEqual([
            variable,
            expect.arrayContaining([variable]),
          ]);
          continue;
        }
        expect([variable, passed('checkout')]).toEqual([
          variable,
          expect.arrayContaining([variable]),
        ]);
        if (CHECKOUT_ONLY.includes(variable)) {
          expect([variable, passed('products')]).toEqual([
            variable,
            expect.not.arrayContaining([variable]),
          ]);
        } else {
          expect([variable, passed('products')]).toEqual([
            variable,
            expect.arrayContaining([variable]),
          ]);
        }
      }
      for (const variable of CHECKOUT_ONLY) expect(CONFIG_VARIABLES).toContain(variable);
    });

    it('takes every variable .env.example documents from .env into a container', () => {
      const documented = [
        ...readFileSync(join(REPO_ROOT, '.env.example'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm),
      ].map((m) => m[1]!);
      // Set by compose per process or container layout, by the image, or not compose's at
      // all (npm run stack's own, tests'); every other one comes from .env by name.
      const notFromEnvFile = [
        ...['PORT', 'HOST', 'MODULES', 'TRUST_PROXY', 'METRICS_PORT', 'METRICS_HOST'],
        ...['DATABASE_URL', 'DATABASE_PASSWORD', 'STATIC_DIR', 'SSR_ENTRY', 'CHECKOUT_URL'],
        'BACKUP_DIR',
        ...['TLS_CERT_FILE', 'TLS_KEY_FILE', 'NGINX_BIN', 'STRIPE_API_BASE', 'NODE_ENV'],
      ];
      const read = new Set(
        // `${X}`, `${X:-default}` and `${X:?message}` (a variable compose requires).
        [...compose.matchAll(/\$\{([A-Z][A-Z0-9_]*)(?::?[-?][^}]*)?\}/g)].map((m) => m[1]),
      );
      for (const variable of documented) {
        if (notFromEnvFile.includes(variable) || variable.startsWith('STACK_')) continue;
        expect([variable, read.has(variable)]).toEqual([variable, true]);
      }
    });

    it('hands the database password over on its own, never inside a URL', () => {
      for (const name of ['products', 'checkout', 'backup']) {
        const env = service(name).environment!;
        expect(env.DATABASE_URL).not.toMatch(/PASSWORD/);
        expect(env.DATABASE_PASSWORD).toBe('${POSTGRES_PASSWORD:-awhh}');
      }
    });
  });

  it('has no obsolete version key', () => {
    expect(config.version).toBeUndefined();
    expect(compose).not.toMatch(/^version:/m);
  });

  it('runs every service least-privileged: read-only, no capabilities, no privilege gain', () => {
    expect(services.length).toBeGreaterThanOrEqual(7);
    for (const [name, s] of services) {
      const where = `service ${name}`;
      expect([where, s.read_only]).toEqual([where, true]);
      expect([where, s.security_opt]).toEqual([where, ['no-new-privileges:true']]);
      expect([where, s.cap_drop]).toEqual([where, ['ALL']]);
      expect([where, s.cap_add ?? []]).toEqual([where, []]);
      expect([where, s.privileged ?? false]).toEqual([where, false]);
    }
  });

  it('runs every service as a non-root user, its own or its image’s', () => {
    for (const [name, s] of services) {
      const user = s.user
        ? s.user
        : s.build
          ? stageUser(
              readFileSync(join(REPO_ROOT, s.build.dockerfile ?? 'Dockerfile'), 'utf8'),
              s.build.target,
            )
          : 'root';
      expect([name, isRoot(user)]).toEqual([name, false]);
    }
  });

  it('limits every service’s memory and CPU', () => {
    for (const [name, s] of services) {
      expect([name, s.mem_limit]).toEqual([name, expect.stringMatching(/^\d+[mg]$/)]);
      expect([name, Number(s.cpus)]).toEqual([name, expect.any(Number)]);
      expect(Number(s.cpus)).toBeGreaterThan(0);
    }
  });

  it('gives every service a healthcheck', () => {
    for (const [name, s] of services) {
      expect([name, healthText(s)]).toEqual([name, expect.stringMatching(/\S/)]);
      expect(s.healthcheck?.disable).not.toBe(true);
    }
  });

  it('checks health on the paths the images serve and npm run stack waits for', () => {
    for (const name of ['products', 'checkout']) {
      expect(healthText(service(name))).toContain('http://127.0.0.1:3000/api/health');
    }
    expect(healthText(service('nginx'))).toContain('http://127.0.0.1:8080/_nginx/health');
    const templates = readdirSync(join(REPO_ROOT, 'nginx', 'templates'))
      .map((f) => readFileSync(join(REPO_ROOT, 'nginx', 'templates', f), 'utf8'))
      .join('\n');
    expect(templates).toMatch(/location = \/_nginx\/health/);
    expect(healthText(service('postgres'))).toMatch(/pg_isready/);
    // npm run stack waits for the same paths before it reports the stack up.
    const stack = readFileSync(join(REPO_ROOT, 'scripts', 'stack.mjs'), 'utf8');
    expect(stack).toContain('`http://127.0.0.1:${productsPort}/api/health`');
    expect(stack).toContain('`http://127.0.0.1:${checkoutPort}/api/health`');
    expect(stack).toContain('`http://${host}:${port}/_nginx/health`');
  });

  it('pins every image it does not build to an exact release', () => {
    for (const [name, s] of services) {
      if (s.build) continue;
      expect([name, s.image]).toEqual([name, expect.stringMatching(EXACT_IMAGE)]);
    }
  });

  it('makes writable only what each service writes', () => {
    // nginx: the configuration rendered at start, pid, temp files and the microcache.
    expect(tmpfsPaths(service('nginx')).sort()).toEqual(['/etc/nginx/conf.d', '/tmp']);
    expect(mounts(service('nginx')).every((m) => m[2] === 'ro')).toBe(true);
    // postgres: its data volume, the socket directory and /tmp.
    expect(mounts(service('postgres'))).toEqual([['postgres-data', '/var/lib/postgresql/data']]);
    expect(tmpfsPaths(service('postgres')).sort()).toEqual(['/tmp', '/var/run/postgresql']);
    // The API services write nothing but /tmp; their store is PostgreSQL.
    for (const name of ['products', 'checkout']) {
      expect(tmpfsPaths(service(name))).toEqual(['/tmp']);
      expect(mounts(service(name)).every((m) => m[2] === 'ro')).toBe(true);
      expect(service(name).environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    }
    // tmpfs owned by the user who writes it (nginx 101, node 1000, postgres 999).
    for (const [name, uid] of [
      ['nginx', '101'],
      ['products', '1000'],
      ['backup', '1000'],
      ['postgres', '999'],
    ] as const) {
      for (const t of service(name).tmpfs ?? []) expect(t).toContain(`uid=${uid},gid=${uid}`);
    }
  });

  it('publishes only nginx to the world, anything else on the host’s loopback alone', () => {
    const published = services.filter(([, s]) => s.ports?.length).map(([n]) => n);
    expect(published.sort()).toEqual(['nginx', 'prometheus']);
    expect(service('nginx').ports).toEqual(['${HTTP_PORT:-8080}:8080', '${HTTPS_PORT:-8443}:8443']);
    for (const port of service('prometheus').ports!) expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  it('serves metrics on the services’ network only: never published, never routed by nginx', () => {
    for (const name of ['products', 'checkout']) {
      const env = service(name).environment!;
      expect(env.METRICS_PORT).toBe('9464');
      expect(env.METRICS_HOST).toBe('0.0.0.0');
      // The site's port is another one: nginx routes to 3000.
      expect(env.PORT).toBe('3000');
    }
    for (const [, s] of services) for (const p of s.ports ?? []) expect(p).not.toMatch(/9464/);
    const nginxConfig = [
      ...readdirSync(join(REPO_ROOT, 'nginx', 'templates')).map((f) => `templates/${f}`),
      ...readdirSync(join(REPO_ROOT, 'nginx', 'snippets')).map((f) => `snippets/${f}`),
      'nginx.conf',
    ].map((f) => readFileSync(join(REPO_ROOT, 'nginx', f), 'utf8'));
    for (const text of nginxConfig) expect(text).not.toMatch(/9464|\/metrics\b/);
  });

  it('the API services trust X-Forwarded-For from nginx alone: its fixed address on the subnet', () => {
    const nginxAddress = /ipv4_address: ([\d.]+)/.exec(compose)?.[1];
    expect(nginxAddress).toBeDefined();
    const trusted = ['products', 'checkout'].map((n) => service(n).environment?.TRUST_PROXY);
    expect(trusted).toEqual([nginxAddress, nginxAddress]);
    // Nobody else is handed nginx's address: the others draw from ip_range.
    const range = /ip_range: ([\d.]+)\/(\d+)/.exec(compose);
    expect(range).not.toBeNull();
    expect(nginxAddress!.split('.').slice(0, 3)).toEqual(range![1]!.split('.').slice(0, 3));
    expect(Number(nginxAddress!.split('.')[3])).toBeLessThan(Number(range![1]!.split('.')[3]));
  });

  describe('profile letsencrypt', () => {
    const certbot = service('certbot');
    const nginx = service('nginx');
    const script = [certbot.command ?? []].flat().join('\n');

    it('runs certbot only in the profile, after nginx serves the challenge', () => {
      expect(certbot.profiles).toEqual(['letsencrypt']);
      expect(certbot.depends_on?.nginx?.condition).toBe('service_healthy');
      expect(certbot.image).toMatch(/^certbot\/certbot:/);
    });

    it('shares the certificates and the webroot with nginx, which only reads them', () => {
      expect(mounts(certbot)).toEqual(
        expect.arrayContaining([
          ['letsencrypt', '/etc/letsencrypt'],
          ['acme-webroot', '/var/www/certbot'],
        ]),
      );
      expect(mounts(nginx)).toEqual(
        expect.arrayContaining([
          ['letsencrypt', '/etc/letsencrypt', 'ro'],
          ['acme-webroot', '/var/www/certbot', 'ro'],
        ]),
      );
      // certbot writes as nginx's uid (the nginx image owns these folders and tmpfs alike),
      // so nginx can read the private key certbot writes 0600.
      expect(certbot.user).toBe('101:101');
      const nginxDockerfile = readFileSync(join(REPO_ROOT, 'nginx', 'Dockerfile'), 'utf8');
      expect(nginxDockerfile).toMatch(/install -d -o nginx -g nginx .*\/etc\/letsencrypt/);
      expect(nginxDockerfile).toMatch(/install -d -o nginx -g nginx .*\/var\/www\/certbot/);
    });

    it('obtains the first certificate by HTTP-01 webroot and tries a renewal every 12 hours', () => {
      expect(script).toMatch(/certbot certonly .*--webroot -w \/var\/www\/certbot/);
      expect(script).toMatch(/-d "\$\$DOMAIN" --email "\$\$ACME_EMAIL" --agree-tos/);
      expect(script).toMatch(/certbot renew .*--webroot -w \/var\/www\/certbot/);
      expect(script).toMatch(/wait=43200\b/);
      expect(certbot.environment).toEqual({ DOMAIN: '${DOMAIN:-}', ACME_EMAIL: '${ACME_EMAIL:-}' });
    });

    it('hands nginx the certificate of DOMAIN and its webroot, HTTPS on 8443, redirects to DOMAIN', () => {
      const env = nginx.environment!;
      expect(env.TLS_CERT_FILE).toBe('/etc/letsencrypt/live/${DOMAIN:-localhost}/fullchain.pem');
      expect(env.TLS_KEY_FILE).toBe('/etc/letsencrypt/live/${DOMAIN:-localhost}/privkey.pem');
      expect(env.TLS_LISTEN_PORT).toBe('8443');
      expect(env.ACME_WEBROOT).toBe('/var/www/certbot');
      // Redirects go to the site's own domain, never to a client's Host header.
      expect(env.HTTPS_ORIGIN).toBe('https://${DOMAIN:-localhost}');
    });
  });

  describe('profile monitoring', () => {
    const prometheus = service('prometheus');

    it('runs Prometheus with the repository’s configuration and alerts, read-only', () => {
      expect(prometheus.profiles).toEqual(['monitoring']);
      expect(prometheus.image).toMatch(/^prom\/prometheus:v\d+\.\d+\.\d+/);
      expect(mounts(prometheus)).toEqual(
        expect.arrayContaining([
          ['./ops/prometheus/prometheus.yml', '/etc/prometheus/prometheus.yml', 'ro'],
          ['./ops/prometheus/alerts.yml', '/etc/prometheus/alerts.yml', 'ro'],
        ]),
      );
      expect([prometheus.command ?? []].flat()).toContain(
        '--config.file=/etc/prometheus/prometheus.yml',
      );
    });

    it('scrapes each API service on the metrics port compose gives it, with the rules mounted beside', () => {
      const prometheusYml = parse(
        readFileSync(join(REPO_ROOT, 'ops', 'prometheus', 'prometheus.yml'), 'utf8'),
      ) as {
        rule_files: string[];
        scrape_configs: {
          job_name: string;
          dns_sd_configs?: { names: string[]; port: number }[];
        }[];
      };
      for (const name of ['products', 'checkout']) {
        const job = prometheusYml.scrape_configs.find((c) => c.job_name === name);
        expect(job?.dns_sd_configs).toEqual([
          expect.objectContaining({
            names: [name],
            port: Number(service(name).environment!.METRICS_PORT),
          }),
        ]);
      }
      // Rule files resolve against prometheus.yml's folder, /etc/prometheus/ in the container.
      const mounted = mounts(prometheus).map((m) => m[1]);
      for (const rules of prometheusYml.rule_files) {
        expect(mounted).toContain(`/etc/prometheus/${rules}`);
      }
    });
  });

  it('docs/operations.md "Betrieb" gives a first look in compose for every alert Prometheus loads', () => {
    const rules = parse(
      readFileSync(join(REPO_ROOT, 'ops', 'prometheus', 'alerts.yml'), 'utf8'),
    ) as { groups: { rules: { alert?: string }[] }[] };
    const alerts = rules.groups.flatMap((g) => g.rules.flatMap((r) => (r.alert ? [r.alert] : [])));
    expect(alerts.length).toBeGreaterThan(0);
    const operations = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
    const betrieb = operations.slice(
      operations.indexOf('\n## Betrieb\n'),
      operations.indexOf('\n## Betrieb: '),
    );
    const table = betrieb.slice(betrieb.indexOf('| alert | first look |'));
    for (const alert of alerts)
      expect([alert, table]).toEqual([alert, expect.stringContaining(`\`${alert}\``)]);
  });

  describe('nightly backup', () => {
    const backup = service('backup');
    const dockerfile = readFileSync(join(REPO_ROOT, 'backend', 'Dockerfile'), 'utf8');

    it('runs the app’s backup from the backup stage into the volume "backups"', () => {
      expect(backup.build).toEqual({
        context: '.',
        dockerfile: 'backend/Dockerfile',
        target: 'backup',
      });
      expect(backup.profiles).toBeUndefined();
      expect(backup.environment?.BACKUP_DIR).toBe('/backups');
      expect(mounts(backup)).toEqual([['backups', '/backups']]);
      expect(backup.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(backup.environment?.DATABASE_URL).toBe(service('checkout').environment?.DATABASE_URL);
      expect(backup.environment?.DATABASE_PASSWORD).toBe('${POSTGRES_PASSWORD:-awhh}');
      const nightly = readFileSync(join(REPO_ROOT, 'backend', 'backup-nightly.sh'), 'utf8');
      expect(nightly).toContain('node /app/backend/dist/backup.cli.js');
      expect(dockerfile).toMatch(/CMD \["sh", "\/app\/backend\/backup-nightly\.sh"\]/);
    });

    it('carries pg_dump of the postgres service’s own image, so of the server’s major version', () => {
      // pg_dump refuses a newer server; the backup stage is built FROM the very image the
      // postgres service runs, with Node and the built app copied in.
      const from = /^FROM\s+(\S+)\s+AS\s+backup$/im.exec(dockerfile)?.[1];
      expect(from).toBe(service('postgres').image);
      expect(from).toMatch(/^postgres:\d+\.\d+-bookworm$/);
      expect(dockerfile).toContain('COPY --from=runtime /usr/local/bin/node /usr/local/bin/node');
      // Only the backup stage: the API services' image carries no database tools.
      const runtime = instructionsOf(
        dockerfile.slice(
          dockerfile.indexOf('AS runtime'),
          dockerfile.search(/^FROM\s+\S+\s+AS\s+backup/m),
        ),
      ).join('\n');
      expect(runtime).not.toMatch(/postgres|pg_dump/);
    });
  });
});
