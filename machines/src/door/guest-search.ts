import { guestEmailKey } from './ticket-code.js';
import type { DoorTicket } from './door.types.js';

// rules "Tickets and the door": the guest list at the door, searched on the phone from the
// downloaded ticket list, offline. By name or company (two letters or more), by the buyer's e-mail
// address (the list carries a key of it, not the address) or by the order number.

/** Letters (or digits) a search needs before it lists anyone. */
export const MIN_SEARCH_CHARS = 2;
/** At most this many hits: the door wants the guest, not a list to scroll. */
export const MAX_SEARCH_HITS = 20;

/**
 * Letters that NFKD does not take apart: ß ẞ æ œ ø ł đ ð þ and the dotless ı. Escaped, as
 * only the site's copy may name letters the preloaded fonts leave out (font-subsets.spec).
 */
const SPECIAL: Record<string, string> = {
  '\u00df': 'ss',
  '\u1e9e': 'ss',
  '\u00e6': 'ae',
  '\u0153': 'oe',
  '\u00f8': 'o',
  '\u0142': 'l',
  '\u0111': 'd',
  '\u00f0': 'd',
  '\u00fe': 'th',
  '\u0131': 'i',
};
const SPECIAL_LETTERS = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'g');

/**
 * A name as the search compares it: lower case, accents off (é → e, ä → a), and the
 * German spellings of umlauts folded the same way (ae → a, oe → o, ue → u), so `Müller`,
 * `Mueller` and `Muller` are one name whichever of them the buyer or the staff typed.
 * Anything but letters and digits becomes one space.
 */
export function foldForSearch(text: string): string {
  return text
    .toLowerCase()
    .replace(SPECIAL_LETTERS, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ae/g, 'a')
    .replace(/oe/g, 'o')
    .replace(/ue/g, 'u')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The list prepared for searching: each ticket with its folded holder. */
export interface GuestIndex {
  eventId: number;
  entries: { ticket: DoorTicket; name: string; words: string[] }[];
}

export function guestIndex(eventId: number, tickets: Iterable<DoorTicket>): GuestIndex {
  const entries: GuestIndex['entries'] = [];
  for (const ticket of tickets) {
    // A seat nobody was named for is found by its buyer, and a guest by the company beside
    // the name too (rules "Named tickets"): "Hafenkontor" finds everyone from there.
    const known = [ticket.holder ?? ticket.buyer, ticket.company].filter(Boolean).join(' ');
    const name = known ? foldForSearch(known) : '';
    entries.push({ ticket, name, words: name ? name.split(' ') : [] });
  }
  return { eventId, entries };
}

export type GuestQuery =
  | { kind: 'short' }
  | { kind: 'email'; key: string }
  | { kind: 'order'; digits: string }
  | { kind: 'name'; words: string[] };

/**
 * What the staff typed: an e-mail address (it has an @), an order number (digits, perhaps
 * with a #), or a name; `short` until it has two letters or digits.
 */
export function parseGuestQuery(eventId: number, input: string): GuestQuery {
  const text = input.trim();
  if (text.includes('@')) {
    const at = text.indexOf('@');
    return at > 0 && at < text.length - 1
      ? { kind: 'email', key: guestEmailKey(eventId, text) }
      : { kind: 'short' };
  }
  const digits = text.replace(/^#/, '').replace(/\s+/g, '');
  if (/^\d+$/.test(digits)) {
    return digits.length >= MIN_SEARCH_CHARS ? { kind: 'order', digits } : { kind: 'short' };
  }
  const folded = foldForSearch(text);
  if (folded.replace(/ /g, '').length < MIN_SEARCH_CHARS) return { kind: 'short' };
  return { kind: 'name', words: folded.split(' ') };
}

/**
 * The tickets the query finds, at most `limit` (the door: MAX_SEARCH_HITS; the organizer's
 * guest list pages itself). A name matches when every typed word is in the holder's name;
 * holders whose first or last name starts with the first typed word come first, then by
 * name, order and seat. Revoked tickets are found too: the door must be able to say
 * "Storniert".
 */
export function searchGuests(
  index: GuestIndex,
  query: GuestQuery,
  limit = MAX_SEARCH_HITS,
): DoorTicket[] {
  if (query.kind === 'short') return [];
  const hits: { ticket: DoorTicket; rank: number; name: string; at: number }[] = [];
  index.entries.forEach((entry, at) => {
    const { ticket } = entry;
    switch (query.kind) {
      case 'email':
        if (ticket.emailKey === query.key) hits.push({ ticket, rank: 0, name: entry.name, at });
        return;
      case 'order': {
        const number = ticket.orderNumber?.replace(/\D+/g, '') ?? '';
        if (!number.includes(query.digits)) return;
        hits.push({ ticket, rank: number === query.digits ? 0 : 1, name: entry.name, at });
        return;
      }
      case 'name': {
        if (!entry.name || !query.words.every((word) => entry.name.includes(word))) return;
        const first = query.words[0]!;
        const rank = entry.words.some((word) => word.startsWith(first)) ? 0 : 1;
        hits.push({ ticket, rank, name: entry.name, at });
      }
    }
  });
  hits.sort((a, b) => a.rank - b.rank || compareNames(a.name, b.name) || a.at - b.at);
  return hits.slice(0, limit).map((hit) => hit.ticket);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
