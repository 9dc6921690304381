import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a benchmark run records and how it reads: the table for the README (figures, budgets
 * and the references measured beside them in the same run) and the full record beside the
 * run's JSON in bench/results/ (every run's figure, Lighthouse's findings, notes). Pure
 * functions, so `npm run bench:table` can redraw the README from a recorded run.
 */

export interface Budget {
  op: '<=' | '>=' | '=';
  value: number;
}

export interface BenchRow {
  group: string;
  metric: string;
  value: number | null;
  unit: string;
  budget?: Budget;
  /** Each run's figure, when the row is the median of several. */
  runs?: number[];
  note?: string;
  /** Written into the JSON for readers of the file; recomputed from value and budget here. */
  verdict?: string;
}

export interface BenchResult {
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; model: string; node: string };
  runs: number;
  loadSeconds: number;
  rows: BenchRow[];
  notes: string[];
  /** The parts measured when BENCH_PARTS chose some; a full run has none. */
  parts?: string[];
}

export const BENCH_START = '<!-- bench:start -->';
export const BENCH_END = '<!-- bench:end -->';

const KB = 1024;

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export function verdict(r: BenchRow): string {
  if (!r.budget) return '';
  if (r.value === null) return 'n/a';
  const { op, value } = r.budget;
  const ok = op === '<=' ? r.value <= value : op === '>=' ? r.value >= value : r.value === value;
  return ok ? 'ok' : 'MISSED';
}

export function show(r: Pick<BenchRow, 'value' | 'unit'>): string {
  if (r.value === null) return 'n/a';
  if (r.unit === 'B') return `${(r.value / KB).toFixed(1)} KB`;
  if (r.unit === 'ms') return `${r.value.toFixed(r.value < 10 ? 1 : 0)} ms`;
  if (r.unit === 'x') return `${r.value.toFixed(2)} ×`;
  if (r.unit === 'req/s') return `${Math.round(r.value)} req/s`;
  if (r.unit === 'score') return String(Math.round(r.value));
  return `${Number.isInteger(r.value) ? r.value : r.value.toFixed(3)}${r.unit ? ' ' + r.unit : ''}`;
}

export function showBudget(r: BenchRow): string {
  if (!r.budget) return '';
  const shown = show({ ...r, value: r.budget.value });
  return `${r.budget.op === '<=' ? '≤' : r.budget.op === '>=' ? '≥' : '='} ${shown}`;
}

/** The size row of one lazy route: what opening it adds to the first load. */
export const routeSizeMetric = (route: string): string => `route ${route}: JS + CSS added (gzip)`;

/**
 * Runs recorded before the size rows were named by the chunk each route imports took the
 * first file of the route's preload list as its name. For the pages that list only their
 * stylesheets (the preload note in frontend/vite.config.ts) that was a CSS file, and the
 * figure held only the CSS those pages add: such a row says so instead of naming a route.
 */
const CSS_NAMED_ROUTE = /^route ([\w.-]+\.css): JS \+ CSS added \(gzip\)$/;

export function rowLabel(r: BenchRow): string {
  const css = CSS_NAMED_ROUTE.exec(r.metric);
  if (r.group === 'size' && css) return `CSS added by an unnamed route, ${css[1]} first (gzip)`;
  return r.metric;
}

export function table(rows: BenchRow[]): string {
  const header = ['', 'metric', 'median', 'budget', ''];
  const lines = rows.map((r) => [r.group, rowLabel(r), show(r), showBudget(r), verdict(r)]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    fmt(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...lines.map(fmt),
  ].join('\n');
}

/** `2026-11-23T19:24:43.342Z` → `2026-11-23T19-24-43-342Z`, the name of the run's files. */
export const resultStamp = (startedAt: string): string => startedAt.replace(/[:.]/g, '-');

/** The servers of a run listen on ephemeral ports: a note names the path, not the origin. */
export const stableNote = (note: string): string =>
  note.replace(/\bhttps?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+(?=\/)/g, '');

function runHeader(result: BenchResult): string {
  const { cpus, node } = result.machine;
  return `${result.startedAt} · ${cpus} cores · Node ${node} · medians of ${result.runs} runs, ${result.loadSeconds} s each`;
}

/**
 * The README's block between its markers: which run, the table, and where the rest of the
 * run is. `resultsDir` is the results folder as the README links it.
 */
export function readmeBlock(result: BenchResult, resultsDir = 'bench/results'): string {
  const details = `${resultsDir}/${resultStamp(result.startedAt)}.md`;
  return [
    runHeader(result),
    '',
    table(result.rows),
    '',
    `Every run's figures, Lighthouse's findings and the notes of this run: [\`${details}\`](${details}); all runs: [\`${resultsDir}/\`](${resultsDir}/).`,
  ].join('\n');
}

/** The run's own record in Markdown, written beside its JSON. */
export function resultsMarkdown(result: BenchResult): string {
  const perRun = result.rows.filter((r) => (r.runs?.length ?? 0) > 1);
  const sections = [
    `# Benchmark run ${result.startedAt}`,
    `${runHeader(result)} · ${result.machine.model || 'unknown CPU'} · finished ${result.finishedAt}`,
    table(result.rows),
  ];
  if (perRun.length) {
    const lines = perRun.map(
      (r) =>
        `| ${r.group} | ${rowLabel(r)} | ${r.runs!.map((v) => show({ value: v, unit: r.unit })).join(', ')} |`,
    );
    sections.push(
      ['## Every run', '', '| | metric | runs |', '|---|---|---|', ...lines].join('\n'),
    );
  }
  if (result.notes.length) {
    sections.push(['## Notes', '', ...result.notes.map((n) => `- ${stableNote(n)}`)].join('\n'));
  }
  return `${sections.join('\n\n')}\n`;
}

/** The README with its bench block replaced, or the section added when it has none yet. */
export function replaceBenchBlock(readme: string, text: string): string {
  const block = `${BENCH_START}\n${text}\n${BENCH_END}`;
  const start = readme.indexOf(BENCH_START);
  const end = readme.indexOf(BENCH_END, start);
  if (start >= 0 && end >= 0) {
    return readme.slice(0, start) + block + readme.slice(end + BENCH_END.length);
  }
  return `${readme.trimEnd()}\n\n## Benchmarks\n\n\`npm run bench\` measures the performance budgets on this machine over loopback and writes every figure to \`bench/results/\`. Latest run:\n\n${block}\n`;
}

/**
 * The newest full run in a results folder (its files are named by their start time): a run
 * of some parts only never stands in the README.
 */
export function newestResultFile(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}-\d\d-\d\dT[\d-]+Z\.json$/.test(f))
    .sort()
    .reverse();
  const full = files.find(
    (f) => !(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Partial<BenchResult>).parts,
  );
  if (!full) throw new Error(`no recorded full run (<timestamp>.json) in ${dir}`);
  return join(dir, full);
}
