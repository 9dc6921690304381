import { compactVerify, importJWK, type JWK } from 'jose';
import { parseClaims, type TicketClaims } from '@awhh/machines';

// Loaded on demand by the door (rules "Tickets and the door": verified offline with the
// public key): jose's browser build over WebCrypto's Ed25519.

/** The signer's algorithm name (backend/src/tickets/ticket-signer.ts). */
const ALG = 'EdDSA';

let imported: { x: string | undefined; key: Promise<CryptoKey | Uint8Array> } | null = null;

function keyOf(jwk: JWK) {
  if (!imported || imported.x !== jwk.x) imported = { x: jwk.x, key: importJWK(jwk, ALG) };
  return imported.key;
}

/** The claims when the site signed this token; null when it did not (or it is garbage). */
export async function verifyTicketToken(token: string, jwk: JWK): Promise<TicketClaims | null> {
  try {
    const { payload } = await compactVerify(token, await keyOf(jwk), { algorithms: [ALG] });
    return parseClaims(JSON.parse(new TextDecoder().decode(payload)));
  } catch {
    return null;
  }
}

/** Imports the key ahead of the first scan, so that scan answers as fast as the rest. */
export async function warmUp(jwk: JWK): Promise<void> {
  await keyOf(jwk);
}
