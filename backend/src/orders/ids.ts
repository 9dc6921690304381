import { randomBytes } from 'node:crypto';

/** An unguessable id: order ids travel to the provider and back in URLs. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}
