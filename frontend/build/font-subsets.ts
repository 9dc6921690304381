import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import subsetFont from 'subset-font';
import type { Plugin } from 'vite';

// rules "Rendering": the first screen waits for its two fonts. On a slow mobile link their
// bytes decide when the page is complete, so each font is split in two faces of the same
// family: a small one with the characters German pages use (preloaded), and the full file
// for the rest of the Latin range, which the browser fetches only for a page that uses one
// of those characters (`unicode-range`). No character loses its font.

/** A code point or an inclusive range of them. */
export type CodeRange = number | [number, number];

/** What the small face holds: ASCII, German, the accents of names, the site's punctuation. */
export const CORE_RANGE: CodeRange[] = [
  [0x20, 0x7e],
  0xa0, // no-break space (de-DE money: "12,00 €")
  0xa7, // §
  0xa9, // ©
  0xab, // «
  0xad, // soft hyphen (invisible, but in CMS text)
  0xb0, // °
  0xb2, // ²
  0xb7, // · (separator in the event meta)
  0xbb, // »
  0xc4, // Ä
  0xc9, // É
  0xd6, // Ö
  0xd7, // ×
  0xdc, // Ü
  0xdf, // ß
  [0xe0, 0xe2], // à á â
  0xe4, // ä
  [0xe7, 0xeb], // ç è é ê ë
  [0xed, 0xef], // í î ï
  0xf1, // ñ
  [0xf3, 0xf4], // ó ô
  0xf6, // ö
  [0xfa, 0xfc], // ú û ü
  0x2009, // thin space
  [0x200b, 0x200d], // zero-width space and joiners (invisible, but in CMS text)
  0x2011, // no-break hyphen
  [0x2013, 0x2014], // – —
  [0x2018, 0x201a], // ‘ ’ ‚
  [0x201c, 0x201e], // “ ” „
  0x2022, // •
  0x2026, // …
  0x202f, // narrow no-break space
  0x2060, // word joiner
  0x20ac, // €
  0x2212, // −
  0xfeff, // byte order mark
];

/** Control characters: no glyph, never a reason to fetch a font. */
const CONTROLS = codePoints([
  [0x00, 0x1f],
  [0x7f, 0x9f],
]);

/** Fontsource's `latin` subset: what its files cover and the site's faces declared so far. */
export const LATIN_RANGE: CodeRange[] = [
  [0x0000, 0x00ff],
  0x0131,
  [0x0152, 0x0153],
  [0x02bb, 0x02bc],
  0x02c6,
  0x02da,
  0x02dc,
  0x0304,
  0x0308,
  0x0329,
  [0x2000, 0x206f],
  0x20ac,
  0x2122,
  0x2191,
  0x2193,
  0x2212,
  0x2215,
  0xfeff,
  0xfffd,
];

/**
 * OpenType features the small faces keep: the browser's defaults (kerning, ligatures,
 * contextual forms, marks) and the figure styles the CSS asks for (`tabular-nums`,
 * `lining-nums`). Stylistic sets and character variants stay in the full files.
 */
export const KEPT_FEATURES = [
  'ccmp',
  'locl',
  'rvrn',
  'mark',
  'mkmk',
  'kern',
  'liga',
  'clig',
  'calt',
  'rlig',
  'tnum',
  'pnum',
  'lnum',
  'onum',
];

export interface FontFace {
  /** Names the small face's file (`<name>-core.woff2`). */
  name: string;
  family: string;
  /** CSS `font-weight` of both faces. */
  weight: string;
  /** The full font, as a module specifier (a fontsource `latin` file). */
  source: string;
  /** Variable axes narrowed to what the CSS uses: fewer bytes for the same glyphs. */
  axes?: Record<string, { min: number; max: number }>;
}

/** Body text and headings (`--font-sans`, `--font-serif` in src/styles/tokens.css). */
export const SITE_FONTS: FontFace[] = [
  {
    name: 'inter',
    family: 'Inter Variable',
    // The CSS uses 400 to 800 (the door's verdicts); the full file keeps 100 to 900.
    weight: '400 800',
    source: '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
    axes: { wght: { min: 400, max: 800 } },
  },
  {
    name: 'cormorant-garamond-600',
    family: 'Cormorant Garamond',
    weight: '600',
    source: '@fontsource/cormorant-garamond/files/cormorant-garamond-latin-600-normal.woff2',
  },
];

function codePoints(ranges: CodeRange[]): Set<number> {
  const points = new Set<number>();
  for (const range of ranges) {
    const [from, to] = typeof range === 'number' ? [range, range] : range;
    for (let c = from; c <= to; c += 1) points.add(c);
  }
  return points;
}

/** A set of code points as the shortest `unicode-range` list. */
export function unicodeRange(points: Iterable<number>): string {
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  const parts: string[] = [];
  const hex = (c: number) => c.toString(16).toUpperCase().padStart(4, '0');
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    parts.push(i === j ? `U+${hex(sorted[i]!)}` : `U+${hex(sorted[i]!)}-${hex(sorted[j]!)}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** The small face's characters and the full face's remaining ones. */
export function splitRanges(): { core: Set<number>; rest: Set<number> } {
  const core = codePoints(CORE_RANGE);
  const rest = new Set(
    [...codePoints(LATIN_RANGE)].filter((c) => !core.has(c) && !CONTROLS.has(c)),
  );
  return { core, rest };
}

/** The stylesheet of both faces per font; urls relative to the generated directory. */
export function fontFaceCss(faces: FontFace[]): string {
  const { core, rest } = splitRanges();
  const face = (f: FontFace, src: string, range: Set<number>) =>
    `@font-face {\n  font-family: '${f.family}';\n  font-style: normal;\n  font-display: swap;\n` +
    `  font-weight: ${f.weight};\n  src: url('${src}') format('woff2');\n` +
    `  unicode-range: ${unicodeRange(range)};\n}\n`;
  return [
    '/* Written by frontend/build/font-subsets.ts at build time. */\n',
    ...faces.flatMap((f) => [face(f, `./${f.name}-core.woff2`, core), face(f, f.source, rest)]),
  ].join('');
}

export async function subsetCore(font: Buffer, face: FontFace): Promise<Buffer> {
  const text = String.fromCodePoint(...splitRanges().core);
  return subsetFont(font, text, {
    targetFormat: 'woff2',
    keepFeatures: KEPT_FEATURES,
    ...(face.axes ? { variationAxes: face.axes } : {}),
  });
}

/**
 * Writes `<dir>/<name>-core.woff2` for every face and `<dir>/fonts.css` declaring both faces
 * (`root`: the frontend package, where the font sources resolve from),
 * before Vite reads any stylesheet (dev server and both builds). Unchanged inputs are not
 * subset again.
 */
export function fontSubsets(options: { root: string; dir: string; faces: FontFace[] }): Plugin {
  // Font sources resolve like the stylesheet's url()s, from the frontend package.
  const require = createRequire(join(options.root, 'package.json'));
  return {
    name: 'awhh-font-subsets',
    async buildStart() {
      const sources = options.faces.map((f) => readFileSync(require.resolve(f.source)));
      const key = createHash('sha256')
        .update(JSON.stringify([options.faces, CORE_RANGE, LATIN_RANGE, KEPT_FEATURES]))
        .update(readFileSync(require.resolve('subset-font/package.json')));
      for (const source of sources) key.update(source);
      const digest = key.digest('hex');
      const keyFile = join(options.dir, 'inputs.sha256');
      const files = options.faces.map((f) => join(options.dir, `${f.name}-core.woff2`));
      const css = join(options.dir, 'fonts.css');
      if (
        existsSync(keyFile) &&
        readFileSync(keyFile, 'utf8') === digest &&
        [css, ...files].every((file) => existsSync(file))
      ) {
        return;
      }
      mkdirSync(options.dir, { recursive: true });
      for (const [i, face] of options.faces.entries()) {
        writeFileSync(files[i]!, await subsetCore(sources[i]!, face));
      }
      writeFileSync(css, fontFaceCss(options.faces));
      writeFileSync(keyFile, digest);
    },
  };
}
