import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  HSTS,
  nginxSecurityHeaderMaps,
  nginxSecurityHeaders,
  securityHeaders,
} from './security-headers.js';

const SNIPPETS = join(__dirname, '..', '..', '..', 'nginx', 'snippets');
const committed = (name: string) => readFileSync(join(SNIPPETS, name), 'utf8');

/** What nginx sends for a path and scheme: the committed files evaluated as nginx does. */
function nginxHeaders(uri: string, scheme: 'http' | 'https'): Record<string, string> {
  const values = new Map<string, string>();
  for (const [, source, variable, body] of committed('security-header-maps.conf').matchAll(
    /^map (\$\w+) (\$\w+) \{\n([\s\S]*?)\n\}/gm,
  )) {
    const entries = new Map(
      [...body!.matchAll(/^ {4}(\S+) "(.*)";$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    const input = source === '$uri' ? uri : scheme;
    values.set(variable!, entries.get(input) ?? entries.get('default')!);
  }
  const headers: Record<string, string> = {};
  for (const [, name, value] of committed('security-headers.conf').matchAll(
    /^add_header (\S+) "(.*)" always;$/gm,
  )) {
    const resolved = value!.replace(/\$\w+/g, (v) => values.get(v) ?? `<${v} unset>`);
    // nginx leaves a header with an empty value out.
    if (resolved !== '') headers[name!.toLowerCase()] = resolved;
  }
  return headers;
}

describe('security headers', () => {
  it('the committed nginx snippets are the ones generated from this definition', () => {
    // On a difference: npm run nginx:headers, and commit the two files.
    expect(committed('security-headers.conf')).toBe(nginxSecurityHeaders());
    expect(committed('security-header-maps.conf')).toBe(nginxSecurityHeaderMaps());
  });

  it.each([
    ['/', 'http'],
    ['/', 'https'],
    ['/einlass', 'http'],
    ['/einlass', 'https'],
    ['/api/events', 'http'],
    ['/einlass-sw.js', 'https'],
  ] as const)('nginx and Node send the same set for %s over %s', (path, scheme) => {
    expect(nginxHeaders(path, scheme)).toEqual({ ...securityHeaders(path, scheme === 'https') });
  });

  it('only the door page may use the camera and compile WebAssembly', () => {
    for (const url of ['/einlass', '/einlass?event=1']) {
      const door = securityHeaders(url, false);
      expect(door['permissions-policy']).toContain('camera=(self)');
      expect(door['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
    }
    for (const url of ['/', '/einlass-sw.js', '/einlass/x', '/einlassen', '/api/checkin/events']) {
      const other = securityHeaders(url, false);
      expect(other['permissions-policy']).toContain('camera=()');
      expect(other['content-security-policy']).toContain("script-src 'self';");
      expect(other['content-security-policy']).not.toContain('wasm');
    }
  });

  it('allows no inline script and no framing, on every response', () => {
    for (const set of [securityHeaders('/', false), securityHeaders('/einlass', true)]) {
      expect(set['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(set['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(set['x-frame-options']).toBe('DENY');
      expect(set['x-content-type-options']).toBe('nosniff');
    }
  });

  it('sends HSTS only over https (browsers ignore it over plain HTTP)', () => {
    expect(securityHeaders('/', true)['strict-transport-security']).toBe(HSTS);
    expect(securityHeaders('/', false)).not.toHaveProperty('strict-transport-security');
  });

  it('hands out the same prepared object for every request of a kind', () => {
    expect(securityHeaders('/api/woocommerce/products', false)).toBe(securityHeaders('/', false));
    expect(Object.isFrozen(securityHeaders('/', false))).toBe(true);
  });
});
