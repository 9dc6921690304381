import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

// rules "Rendering" budget: what `/` loads (entry + its static imports + the `/` route chunk
// and their CSS) must stay within these limits, and no route chunk may exceed its own.
export interface Budget {
  homeJs: number;
  homeCss: number;
  routeChunk: number;
  /** Module id suffix of the `/` route, e.g. "src/app/routes/home.tsx". */
  homeRoute: string;
}

interface ChunkInfo {
  fileName: string;
  code: string;
  imports: string[];
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
  css: string[];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gz = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length;

export function sizeBudget(budget: Budget): Plugin {
  return {
    name: 'awhh-size-budget',
    apply: 'build',
    enforce: 'post',
    // The files as written: Vite fills in the preload lists of the chunks after generateBundle.
    writeBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      const sizes = new Map<string, number>();
      for (const [fileName, out] of Object.entries(bundle)) {
        if (out.type === 'chunk') {
          const meta = (out as unknown as { viteMetadata?: { importedCss: Set<string> } })
            .viteMetadata;
          chunks.set(fileName, {
            fileName,
            code: out.code,
            imports: out.imports,
            isEntry: out.isEntry,
            isDynamicEntry: out.isDynamicEntry,
            facadeModuleId: out.facadeModuleId,
            css: meta ? [...meta.importedCss] : [],
          });
          sizes.set(fileName, gz(out.code));
        } else if (fileName.endsWith('.css')) {
          sizes.set(fileName, gz(typeof out.source === 'string' ? out.source : out.source));
        }
      }

      const closure = (start: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(start)) return seen;
        seen.add(start);
        for (const dep of chunks.get(start)?.imports ?? []) closure(dep, seen);
        return seen;
      };

      const entry = [...chunks.values()].find((c) => c.isEntry);
      const home = [...chunks.values()].find((c) =>
        c.facadeModuleId?.replaceAll('\\', '/').endsWith(budget.homeRoute),
      );
      if (!entry || !home) {
        this.error(`size budget: entry or ${budget.homeRoute} chunk not found`);
        return;
      }
      const homeJs = new Set([...closure(entry.fileName), ...closure(home.fileName)]);
      const homeCss = new Set([...homeJs].flatMap((f) => chunks.get(f)?.css ?? []));

      const lines = ['', 'gzip sizes:'];
      for (const [fileName, size] of [...sizes].sort((a, b) => b[1] - a[1])) {
        const tag = homeJs.has(fileName) || homeCss.has(fileName) ? '  (/)' : '';
        lines.push(`  ${kb(size).padStart(9)}  ${fileName}${tag}`);
      }
      const sum = (files: Set<string>) => [...files].reduce((n, f) => n + (sizes.get(f) ?? 0), 0);
      const jsTotal = sum(homeJs);
      const cssTotal = sum(homeCss);
      lines.push(`  JS loaded for /:  ${kb(jsTotal)} gzip (budget ${kb(budget.homeJs)})`);
      lines.push(`  CSS loaded for /: ${kb(cssTotal)} gzip (budget ${kb(budget.homeCss)})`);
      console.log(lines.join('\n'));

      const problems: string[] = [];
      if (jsTotal > budget.homeJs)
        problems.push(`JS for / is ${kb(jsTotal)} > ${kb(budget.homeJs)}`);
      if (cssTotal > budget.homeCss)
        problems.push(`CSS for / is ${kb(cssTotal)} > ${kb(budget.homeCss)}`);
      for (const chunk of chunks.values()) {
        if (chunk.isEntry) continue;
        const size = sizes.get(chunk.fileName) ?? 0;
        if (size > budget.routeChunk)
          problems.push(`${chunk.fileName} is ${kb(size)} > ${kb(budget.routeChunk)}`);
      }
      if (problems.length > 0 && !process.env.AWHH_SKIP_BUDGET)
        this.error(`size budget exceeded:\n  ${problems.join('\n  ')}`);
    },
  };
}
