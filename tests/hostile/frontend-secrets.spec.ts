import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../support/site.js';

/**
 * Whatever ships to the browser is public. A Stripe secret or restricted key, a webhook
 * secret or a WooCommerce consumer key/secret in frontend/dist would hand the shop over.
 */
const SECRET_PATTERNS: { name: string; pattern: RegExp }[] = [
  { name: 'Stripe secret key', pattern: /\bsk_(?:test|live)_[0-9A-Za-z]{8,}/ },
  { name: 'Stripe restricted key', pattern: /\brk_(?:test|live)_[0-9A-Za-z]{8,}/ },
  { name: 'Stripe webhook secret', pattern: /\bwhsec_[0-9A-Za-z+/=]{8,}/ },
  { name: 'WooCommerce consumer key', pattern: /\bck_[0-9a-f]{40}\b/ },
  { name: 'WooCommerce consumer secret', pattern: /\bcs_[0-9a-f]{40}\b/ },
];

const DIST = join(REPO_ROOT, 'frontend', 'dist');

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

export function findSecrets(text: string): string[] {
  return SECRET_PATTERNS.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
}

describe('hostile: no secret in the built frontend', () => {
  it('the scanner recognises every kind of secret it looks for (and not ordinary code)', () => {
    // Assembled at run time, so the repository itself never holds a secret-shaped string.
    const body = '51HxYzAbCdEfGhIjKlMn';
    const planted = [
      `const k="${['sk', 'live', body].join('_')}"`,
      `x="${['rk', 'test', body].join('_')}"`,
      `"${['whsec', 'AbCdEfGhIjKlMnOpQrSt'].join('_')}"`,
      `"ck_${'0123456789abcdef'.repeat(2)}01234567"`,
      `"cs_${'fedcba9876543210'.repeat(2)}76543210"`,
    ];
    expect(planted.map(findSecrets)).toEqual(SECRET_PATTERNS.map(({ name }) => [name]));
    expect(findSecrets('function mask_test_value(){return task_live_x}')).toEqual([]);
  });

  it('frontend/dist contains no Stripe key, webhook secret or WooCommerce key/secret', () => {
    expect(existsSync(join(DIST, 'index.html'))).toBe(true);
    const found: string[] = [];
    let scanned = 0;
    for (const path of files(DIST)) {
      const bytes = readFileSync(path);
      // Images and fonts too: a key can hide in any file the server hands out.
      const text = bytes.toString('latin1');
      scanned += 1;
      for (const name of findSecrets(text)) found.push(`${relative(DIST, path)}: ${name}`);
    }
    expect(scanned).toBeGreaterThan(1);
    expect(found).toEqual([]);
  });
});
