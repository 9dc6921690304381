import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BENCH_END,
  BENCH_START,
  type BenchResult,
  newestResultFile,
  readmeBlock,
  replaceBenchBlock,
  resultsMarkdown,
  routeSizeMetric,
  rowLabel,
  table,
} from './report.js';

/** Rows and notes as a full run recorded them (bench/results/2026-11-23T19-24-43-342Z.json). */
const RECORDED: BenchResult = {
  startedAt: '2026-11-23T19:24:43.342Z',
  finishedAt: '2026-11-23T19:35:53.464Z',
  machine: { cpus: 2, model: 'AMD EPYC', node: 'v20.20.2' },
  runs: 3,
  loadSeconds: 5,
  rows: [
    {
      group: 'size',
      metric: 'first load / JS (gzip)',
      value: 112528,
      unit: 'B',
      budget: { op: '<=', value: 112640 },
      verdict: 'ok',
    },
    {
      group: 'size',
      metric: 'route home: JS + CSS added (gzip)',
      value: 9085,
      unit: 'B',
    },
    {
      group: 'size',
      metric: 'route feedback-BdvwZRfe.css: JS + CSS added (gzip)',
      value: 1351,
      unit: 'B',
    },
    {
      group: 'size',
      metric: 'route waitlist-Bfwk6WNb.css: JS + CSS added (gzip)',
      value: 1351,
      unit: 'B',
    },
    {
      group: 'lighthouse /',
      metric: 'TBT',
      value: 685.5,
      unit: 'ms',
      budget: { op: '<=', value: 150 },
      runs: [646.9999999999998, 756, 685.5],
      verdict: 'MISSED',
    },
    {
      group: 'lighthouse /',
      metric: 'LCP / ceiling',
      value: 1.1851156497222644,
      unit: 'x',
      budget: { op: '<=', value: 1.2 },
      verdict: 'ok',
    },
    {
      group: 'checkout',
      metric: 'POST /api/checkout/session, test provider, PostgreSQL (20 conn)',
      value: null,
      unit: 'req/s',
    },
  ],
  notes: [
    'Lighthouse http://127.0.0.1:21753/assets/bench-floor.html loses points on: performance:total-blocking-time',
    'Lighthouse http://127.0.0.1:21753/ loses points on: performance:total-blocking-time',
  ],
};

describe('rowLabel', () => {
  it('names a size row that a recorded run named after a stylesheet as that CSS, not a route', () => {
    const labels = RECORDED.rows.map(rowLabel);
    expect(labels).toContain('CSS added by an unnamed route, feedback-BdvwZRfe.css first (gzip)');
    expect(labels.filter((l) => /^route [\w.-]+\.css:/.test(l))).toEqual([]);
  });

  it('keeps the name of every other row, the routes named by their chunk included', () => {
    expect(
      rowLabel({ group: 'size', metric: routeSizeMetric('ticket'), value: 1, unit: 'B' }),
    ).toBe('route ticket: JS + CSS added (gzip)');
    expect(rowLabel(RECORDED.rows[4]!)).toBe('TBT');
  });
});

describe('table', () => {
  it('draws one aligned Markdown row per figure: median, budget and verdict', () => {
    expect(table(RECORDED.rows).split('\n')).toEqual([
      '|              | metric                                                            | median   | budget     |        |',
      '|--------------|-------------------------------------------------------------------|----------|------------|--------|',
      '| size         | first load / JS (gzip)                                            | 109.9 KB | ≤ 110.0 KB | ok     |',
      '| size         | route home: JS + CSS added (gzip)                                 | 8.9 KB   |            |        |',
      '| size         | CSS added by an unnamed route, feedback-BdvwZRfe.css first (gzip) | 1.3 KB   |            |        |',
      '| size         | CSS added by an unnamed route, waitlist-Bfwk6WNb.css first (gzip) | 1.3 KB   |            |        |',
      '| lighthouse / | TBT                                                               | 686 ms   | ≤ 150 ms   | MISSED |',
      '| lighthouse / | LCP / ceiling                                                     | 1.19 ×   | ≤ 1.20 ×   | ok     |',
      '| checkout     | POST /api/checkout/session, test provider, PostgreSQL (20 conn)   | n/a      |            |        |',
    ]);
  });
});

describe('readmeBlock', () => {
  const block = readmeBlock(RECORDED);

  it('holds the table and links the run and the results folder', () => {
    expect(block).toContain(table(RECORDED.rows));
    expect(block).toContain(
      '[`bench/results/2026-11-23T19-24-43-342Z.md`](bench/results/2026-11-23T19-24-43-342Z.md)',
    );
    expect(block).toContain('[`bench/results/`](bench/results/)');
  });

  it("leaves the run's notes, its ports and every run's figure to the results file", () => {
    expect(block).not.toMatch(/127\.0\.0\.1|Notes|loses points/);
    expect(block).not.toContain('647');
  });
});

describe('resultsMarkdown', () => {
  const markdown = resultsMarkdown(RECORDED);

  it("records every run's figure of each median", () => {
    expect(markdown).toContain('| lighthouse / | TBT | 647 ms, 756 ms, 686 ms |');
  });

  it('keeps the notes, naming paths instead of the ephemeral ports they were served on', () => {
    expect(markdown).toContain(
      '- Lighthouse /assets/bench-floor.html loses points on: performance:total-blocking-time',
    );
    expect(markdown).toContain('- Lighthouse / loses points on: performance:total-blocking-time');
    expect(markdown).not.toMatch(/127\.0\.0\.1:\d+/);
  });
});

describe('replaceBenchBlock', () => {
  const readme = `# Site\n\nbefore\n\n${BENCH_START}\nold table\n${BENCH_END}\n\nafter, floor and ceiling\n`;

  it('replaces only what stands between the markers', () => {
    expect(replaceBenchBlock(readme, 'new table')).toBe(
      `# Site\n\nbefore\n\n${BENCH_START}\nnew table\n${BENCH_END}\n\nafter, floor and ceiling\n`,
    );
  });

  it('writes the text as it is, dollar signs included', () => {
    expect(replaceBenchBlock(readme, "costs $& and $'")).toContain("\ncosts $& and $'\n");
  });

  it('adds the section with its markers to a README that has none', () => {
    const next = replaceBenchBlock('# Site\n', 'table');
    expect(next).toMatch(/## Benchmarks[\s\S]*<!-- bench:start -->\ntable\n<!-- bench:end -->\n$/);
  });
});

describe('newestResultFile', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'awhh-bench-results-'));
    for (const name of [
      '2026-11-22T02-40-13-717Z.json',
      '2026-11-23T19-24-43-342Z.json',
      '2026-11-23T19-24-43-342Z.md',
      '2026-11-24T01-00-00-000Z.json.tmp',
      'notes.json',
    ]) {
      writeFileSync(join(dir, name), '{}');
    }
    writeFileSync(join(dir, '2026-11-23T20-00-00-000Z.json'), '{"parts":["sizes"]}');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("picks the latest full run's JSON: not its Markdown, a file being written or a partial run", () => {
    expect(newestResultFile(dir)).toBe(join(dir, '2026-11-23T19-24-43-342Z.json'));
  });

  it('says so when the folder holds no run', () => {
    const empty = mkdtempSync(join(tmpdir(), 'awhh-bench-results-'));
    try {
      expect(() => newestResultFile(empty)).toThrow(/no recorded full run/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
