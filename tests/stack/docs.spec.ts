import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { REPO_ROOT } from '../support/site.js';

// The documentation as a newcomer reads it: every decision record is in the index, and
// every link between the repository's own pages leads somewhere.

const DOCS = join(REPO_ROOT, 'docs');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

describe('docs/', () => {
  it('the decision index lists every record in docs/decisions, in order', () => {
    const records = readdirSync(join(DOCS, 'decisions'))
      .filter((name) => /^\d{4}-.*\.md$/.test(name))
      .sort();
    const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
    const listed = [...index.matchAll(/\]\(decisions\/(\d{4}-[^)]+\.md)\)/g)].map((m) => m[1]);
    expect(listed).toEqual(records);
  });

  it('every relative link of README.md and docs/ names a file that exists', () => {
    const pages = [join(REPO_ROOT, 'README.md'), ...markdownFiles(DOCS)];
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = target!.split('#')[0]!;
        if (!existsSync(join(dirname(page), decodeURIComponent(path)))) {
          broken.push(`${relative(REPO_ROOT, page)} → ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
