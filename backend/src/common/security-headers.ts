/**
 * The security headers of every response, in one place for both servers: the Node process
 * sends them itself (the single-process `npm start` has no proxy in front), and
 * `nginx/snippets/security-headers.conf` with `security-header-maps.conf` are generated from
 * this file (`npm run nginx:headers`; a test fails when the committed files differ).
 */

/** The door page reads QR codes with the camera and a WebAssembly decoder; no other page may. */
export const DOOR_PAGE_PATH = '/einlass';

export const HSTS = 'max-age=31536000; includeSubDomains';

/** What differs between responses; in nginx each one is a variable set by a map. */
interface Varying {
  /** Appended to `script-src`: the door's QR decoder compiles WebAssembly. */
  wasmScriptSource: string;
  cameraPolicy: string;
  /** Empty over plain HTTP, where browsers ignore it anyway: the header is left out. */
  strictTransportSecurity: string;
}

const DOOR: Pick<Varying, 'wasmScriptSource' | 'cameraPolicy'> = {
  wasmScriptSource: " 'wasm-unsafe-eval'",
  cameraPolicy: 'camera=(self)',
};
const OTHER_PAGES: typeof DOOR = { wasmScriptSource: '', cameraPolicy: 'camera=()' };

/** Header names in nginx's spelling; Node sends them in lower case. */
function headers(v: Varying): Array<[name: string, value: string]> {
  return [
    [
      'Content-Security-Policy',
      [
        "default-src 'self'",
        // Scripts from files only: the server's HTML carries no inline script.
        `script-src 'self'${v.wasmScriptSource}`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: https:",
        "font-src 'self'",
        "connect-src 'self'",
        "frame-src 'self'",
        "form-action 'self' https://checkout.stripe.com",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
      ].join('; '),
    ],
    ['Strict-Transport-Security', v.strictTransportSecurity],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    [
      'Permissions-Policy',
      `payment=(self), ${v.cameraPolicy}, microphone=(), geolocation=(), usb=()`,
    ],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin-allow-popups'],
  ];
}

function forNode(door: boolean, https: boolean): Readonly<Record<string, string>> {
  const set: Record<string, string> = {};
  for (const [name, value] of headers({
    ...(door ? DOOR : OTHER_PAGES),
    strictTransportSecurity: https ? HSTS : '',
  })) {
    if (value !== '') set[name.toLowerCase()] = value;
  }
  return Object.freeze(set);
}

// Built once: the hook that sends them runs on every request, the feed's included.
const NODE_SETS = {
  page: forNode(false, false),
  pageHttps: forNode(false, true),
  door: forNode(true, false),
  doorHttps: forNode(true, true),
};

/** True for `/einlass` with or without a query; nginx's map compares the path the same way. */
function isDoorPage(url: string): boolean {
  return (
    url.startsWith(DOOR_PAGE_PATH) &&
    (url.length === DOOR_PAGE_PATH.length || url.charCodeAt(DOOR_PAGE_PATH.length) === 63) // '?'
  );
}

/** The headers for a request's raw URL (path and query) and whether it arrived over https. */
export function securityHeaders(url: string, https: boolean): Readonly<Record<string, string>> {
  if (isDoorPage(url)) return https ? NODE_SETS.doorHttps : NODE_SETS.door;
  return https ? NODE_SETS.pageHttps : NODE_SETS.page;
}

const GENERATED =
  '# Generated from backend/src/common/security-headers.ts by `npm run nginx:headers`: edit\n' +
  '# that file, not this one (a test fails when the two differ).\n';

const NGINX_VARIABLES: Varying = {
  wasmScriptSource: '$wasm_script_source',
  cameraPolicy: '$camera_policy',
  strictTransportSecurity: '$strict_transport_security',
};

/** `nginx/snippets/security-headers.conf`, included in the server and every location with its own add_header. */
export function nginxSecurityHeaders(): string {
  const lines = headers(NGINX_VARIABLES);
  return (
    GENERATED +
    '# add_header is not inherited into a block that has one, so every such block includes\n' +
    '# the full set. An empty value (HSTS over plain HTTP) sends no header.\n' +
    lines.map(([name, value]) => `add_header ${name} "${value}" always;`).join('\n') +
    '\n# The API processes send the same set themselves (for `npm start` without a proxy);\n' +
    "# nginx's copy replaces theirs instead of doubling every header.\n" +
    lines.map(([name]) => `proxy_hide_header ${name};`).join('\n') +
    '\n'
  );
}

function nginxMap(source: string, variable: string, entries: Array<[string, string]>): string {
  const body = entries.map(([key, value]) => `    ${key} "${value}";`).join('\n');
  return `map ${source} ${variable} {\n${body}\n}\n`;
}

/** `nginx/snippets/security-header-maps.conf`, included once at the http level. */
export function nginxSecurityHeaderMaps(): string {
  return (
    GENERATED +
    '# The variables security-headers.conf reads.\n' +
    nginxMap('$uri', '$camera_policy', [
      [DOOR_PAGE_PATH, DOOR.cameraPolicy],
      ['default', OTHER_PAGES.cameraPolicy],
    ]) +
    nginxMap('$uri', '$wasm_script_source', [
      [DOOR_PAGE_PATH, DOOR.wasmScriptSource],
      ['default', OTHER_PAGES.wasmScriptSource],
    ]) +
    // $forwarded_proto: the scheme the visitor used (the site template's map).
    nginxMap('$forwarded_proto', '$strict_transport_security', [
      ['https', HSTS],
      ['default', ''],
    ])
  );
}
