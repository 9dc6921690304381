/** @jest-environment node */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import * as fontkit from 'fontkit';
import { fontFaceCss, SITE_FONTS, splitRanges, subsetCore, unicodeRange } from './font-subsets';

// rules "Rendering": the preloaded fonts are small faces of the full files; the full files
// serve the rest of the Latin range, so no character loses its font.

const FRONTEND = resolve(__dirname, '..');
const requireFrom = createRequire(join(FRONTEND, 'package.json'));
/** A font file in a package (jest maps `*.woff2` requests to a stub, so resolve the package). */
function source(specifier: string): Buffer {
  const parts = specifier.split('/');
  const name = parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const dir = dirname(requireFrom.resolve(`${name}/package.json`));
  return readFileSync(join(dir, ...parts.slice(name.split('/').length)));
}

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('font subsets', () => {
  it('writes unicode-range as the shortest list of ranges', () => {
    expect(unicodeRange([0x20, 0x21, 0x22, 0xe4, 0x2026, 0x2025])).toBe(
      'U+0020-0022, U+00E4, U+2025-2026',
    );
  });

  it('splits the Latin range in two faces that share no character and miss none', () => {
    const { core, rest } = splitRanges();
    expect([...core].filter((c) => rest.has(c))).toEqual([]);
    for (const c of ['A', 'z', 'ä', 'Ö', 'ß', 'é', '€', '„', '“', '–', '…', ' ']) {
      expect(core.has(c.codePointAt(0)!)).toBe(true);
    }
    // Rarer letters and signs stay with the full file.
    for (const c of ['ø', 'å', 'Œ', '™', '‰']) expect(rest.has(c.codePointAt(0)!)).toBe(true);

    const css = fontFaceCss(SITE_FONTS);
    for (const font of SITE_FONTS) {
      expect(css).toContain(`src: url('./${font.name}-core.woff2') format('woff2');`);
      expect(css).toContain(`src: url('${font.source}') format('woff2');`);
    }
    expect(css.match(/unicode-range: /g)).toHaveLength(SITE_FONTS.length * 2);
  });

  it("German pages never need a full file: the site's copy and the demo catalog use only the small faces' characters", () => {
    const { rest } = splitRanges();
    const texts = [
      ...files(join(FRONTEND, 'src'), /\.(tsx?|html)$/),
      ...files(join(FRONTEND, '..', 'backend', 'src', 'catalog', 'demo'), /\.ts$/),
      ...files(join(FRONTEND, '..', 'machines', 'src'), /\.ts$/),
    ];
    const found: string[] = [];
    for (const file of texts) {
      // What pages can show: the code's strings, not its comments.
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const ch of code) {
        if (rest.has(ch.codePointAt(0)!)) found.push(`${ch} in ${file}`);
      }
    }
    expect(found).toEqual([]);
  });

  it.each(SITE_FONTS)(
    'the small face of $family has every core character its full file has, in at most 70 % of its bytes',
    async (face) => {
      const full = source(face.source);
      const small = await subsetCore(full, face);
      const fullFont = fontkit.create(full) as fontkit.Font;
      const smallFont = fontkit.create(small) as fontkit.Font;
      const { core } = splitRanges();
      const expected = fullFont.characterSet.filter((c) => core.has(c)).sort((a, b) => a - b);
      // 0xFFFF: the end marker of a format 4 cmap, which fontkit lists.
      const kept = smallFont.characterSet.filter((c) => c !== 0xffff).sort((a, b) => a - b);
      expect(kept).toEqual(expected);
      // German text is all there (the invisible format characters may not be in a font).
      const german = ' AZaz09äöüÄÖÜß€„“‚‘–…·§';
      for (const ch of german) expect(kept).toContain(ch.codePointAt(0));
      expect(kept.length).toBeGreaterThan(0x7e - 0x20 + 30);
      expect(small.length).toBeLessThan(full.length * 0.7);
      // The figure styles the CSS asks for survive the cut.
      expect(smallFont.availableFeatures).toContain('tnum');
      for (const [axis, range] of Object.entries(face.axes ?? {})) {
        expect(smallFont.variationAxes[axis]).toMatchObject(range);
      }
    },
  );
});
