import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  type BenchResult,
  newestResultFile,
  readmeBlock,
  replaceBenchBlock,
  resultsMarkdown,
} from './report.js';

/**
 * `npm run bench:table [bench/results/<timestamp>.json]`: redraws the README's bench block
 * and the run's Markdown record from a recorded run (the newest by default), through the
 * same formatter as `npm run bench`, without measuring anything. Run from the repository root.
 */

const root = process.cwd();
const file = process.argv[2] ?? newestResultFile(join(root, 'bench', 'results'));
const result = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;

const markdown = file.replace(/\.json$/, '.md');
writeFileSync(markdown, resultsMarkdown(result));

const readmePath = join(root, 'README.md');
writeFileSync(readmePath, replaceBenchBlock(readFileSync(readmePath, 'utf8'), readmeBlock(result)));
process.stdout.write(
  `README.md and ${relative(root, markdown)} drawn from ${relative(root, file)}\n`,
);
