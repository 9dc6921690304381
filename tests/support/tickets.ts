import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import jsQRModule from 'jsqr';

// DESIGN "Tickets and the door": checks on a ticket as the door makes them, for the
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
