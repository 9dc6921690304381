import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import jsQRModule from 'jsqr';

// rules "Tickets and the door": checks on a ticket as the door makes them, for the
// browser suites.

/** jsqr is CommonJS whose types claim an ES default export: take whichever the loader gives. */
export const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ??
  jsQRModule) as unknown as typeof import('jsqr').default;

/** A compact JWS (EdDSA) checked against the site's public key, as the door does offline. */
export function verifiesWith(token: string, jwk: JsonWebKey): boolean {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  return verify(
    null,
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature, 'base64url'),
  );
}

/**
 * The token with one character of its signature changed. A middle one: the last character
 * of base64url carries unused bits, and a fixed replacement may equal the original.
 */
export function tampered(token: string): string {
  const at = token.lastIndexOf('.') + 10;
  const replacement = token[at] === 'A' ? 'B' : 'A';
  return token.slice(0, at) + replacement + token.slice(at + 1);
}
