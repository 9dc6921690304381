import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/site.js';

// The monitoring files (docs/operations.md "Betrieb: Metriken" and "Betrieb: Alarme"), checked
// statically: with promtool where it is installed (Debian's `prometheus` package, which
// `npm test` installs), and always by reading them.

const DIR = join(REPO_ROOT, 'ops', 'prometheus');
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const havePromtool = !promtool.error && promtool.status === 0;
const withPromtool = havePromtool ? it : it.skip;

interface Rule {
  alert?: string;
  record?: string;
  expr?: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const alerts = parse(readFileSync(join(DIR, 'alerts.yml'), 'utf8')) as {
  groups: { name: string; rules: Rule[] }[];
};
const rules = alerts.groups.flatMap((group) => group.rules);

function run(args: string[]) {
  const res = spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8' });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

/** Every metric name the backend registers (`name: '…'` beside prom-client's options). */
function backendMetricNames(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/name: '([a-z_]+)',\s*\n\s*help:/g)) {
          names.add(m[1]!);
        }
      }
    }
  };
  walk(join(REPO_ROOT, 'backend', 'src'));
  return names;
}

describe('ops/prometheus', () => {
  withPromtool('alerts.yml passes promtool check rules', () => {
    const res = run(['check', 'rules', 'alerts.yml']);
    expect(res.output).toContain('SUCCESS');
    expect(res.status).toBe(0);
  });

  withPromtool('prometheus.yml passes promtool check config, with alerts.yml as its rules', () => {
    const res = run(['check', 'config', 'prometheus.yml']);
    expect(res.output).toContain('1 rule files found');
    expect(res.status).toBe(0);
  });

  withPromtool('the alerts behave as alerts.test.yml says (JobsStuck after 15 minutes)', () => {
    const res = run(['test', 'rules', 'alerts.test.yml']);
    expect(res.output).toContain('SUCCESS');
    expect(res.status).toBe(0);
  });

  it('every alert has an expression, a duration, a severity and German summary with a runbook', () => {
    expect(rules.length).toBeGreaterThanOrEqual(6);
    for (const rule of rules) {
      expect(rule).toMatchObject({ alert: expect.stringMatching(/^[A-Z][A-Za-z]+$/) });
      expect(typeof rule.expr).toBe('string');
      expect(String(rule.for)).toMatch(/^\d+[smh]$/);
      expect(['critical', 'warning']).toContain(rule.labels?.severity);
      expect(typeof rule.annotations?.summary).toBe('string');
      expect(rule.annotations?.description).toContain('docs/operations.md#betrieb-alarme');
      expect(rule.annotations?.runbook_url).toBe('docs/operations.md#betrieb-alarme');
    }
    const names = rules.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'JobsStuck',
        'WooCommerceFailing',
        'SmtpFailing',
        'HighServerErrorRate',
        'EventLoopLag',
      ]),
    );
  });

  it("asks only for metrics the backend exports (or Prometheus' own and prom-client's)", () => {
    const exported = backendMetricNames();
    const unknown: string[] = [];
    for (const rule of rules) {
      for (const [name] of String(rule.expr).matchAll(
        /\b[a-z][a-z0-9_]*_(?:seconds|total|count)\b/g,
      )) {
        if (/^(nodejs|process)_/.test(name)) continue;
        const base = name.replace(/_(count|bucket|sum)$/, '');
        if (!exported.has(name) && !exported.has(base)) unknown.push(`${rule.alert}: ${name}`);
      }
    }
    expect(exported).toContain('jobs_oldest_due_age_seconds');
    expect(unknown).toEqual([]);
  });

  it('the runbook anchor exists: docs/operations.md has a section "Betrieb: Alarme" naming every alert', () => {
    const operations = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
    const section = /^## Betrieb: Alarme\n([\s\S]*?)(?=^## )/m.exec(operations)?.[1] ?? '';
    for (const rule of rules) expect(section).toContain(`\`${rule.alert}\``);
  });

  it('scrapes the compose services products and checkout on METRICS_PORT, the rules beside it', () => {
    const config = parse(readFileSync(join(DIR, 'prometheus.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; port: number }[] }[];
    };
    expect(config.rule_files).toEqual(['alerts.yml']);
    const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, unknown>;
    };
    for (const job of ['products', 'checkout']) {
      const scrape = config.scrape_configs.find((c) => c.job_name === job);
      expect(scrape?.dns_sd_configs[0]).toMatchObject({ names: [job], port: 9464 });
      expect(Object.keys(compose.services)).toContain(job);
    }
  });
});
