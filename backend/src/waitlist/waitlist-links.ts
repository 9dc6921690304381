import { randomBytes } from 'node:crypto';
import { absoluteUrl } from '../site/html-head.js';

/** 24 random bytes, base64url: the only secret in a waiting-list link. */
export function newWaitlistToken(): string {
  return randomBytes(24).toString('base64url');
}

export function newWaitlistEntryId(): string {
  return `wl_${randomBytes(9).toString('base64url')}`;
}

/** The visitor's pages (SPA routes, rules "Waiting list"). */
export const waitlistLinks = {
  confirm: (publicUrl: string, token: string) =>
    absoluteUrl(publicUrl, `/waitlist/confirm/${token}`),
  offer: (publicUrl: string, token: string) => absoluteUrl(publicUrl, `/waitlist/offer/${token}`),
  unsubscribe: (publicUrl: string, token: string) =>
    absoluteUrl(publicUrl, `/waitlist/unsubscribe/${token}`),
};
