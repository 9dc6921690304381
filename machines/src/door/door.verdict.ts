import { startOfBerlinDay } from '../events/berlin-time.js';
import { formatClock, formatLongDate } from '../format/dates.js';
import type {
  DoorCheckin,
  DoorEventSummary,
  DoorScanResult,
  DoorTicket,
  DoorVerdict,
  TicketClaims,
} from './door.types.js';

// The door's rules (rules "Tickets and the door"), pure so they run offline on the
// device and are tested here: what a scanned code means, given the signature check, the
// downloaded ticket list and the check-ins this device knows of.

/** A compact JWS: three base64url parts. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Far above a real token (about 150 characters for `{"t":"tkt_…","e":42,"s":1}`). */
const MAX_TOKEN = 1000;

/**
 * The token from what the camera or the staff typed: the token itself, or the ticket
 * page's address (`…/tickets/{token}`, also percent-encoded); null for anything else.
 */
export function tokenFromInput(input: string): string | null {
  let text = input.trim();
  const page = /\/tickets\/([^/?#\s]+)/.exec(text);
  if (page) {
    try {
      text = decodeURIComponent(page[1]!);
    } catch {
      return null;
    }
  }
  return text.length <= MAX_TOKEN && COMPACT_JWS.test(text) ? text : null;
}

/** The claims of a verified payload, or null when it is not the shape the site signs. */
export function parseClaims(payload: unknown): TicketClaims | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { t, e, s, g } = payload as Record<string, unknown>;
  if (typeof t !== 'string' || t.length === 0 || t.length > 64) return null;
  if (typeof e !== 'number' || !Number.isInteger(e)) return null;
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 1) return null;
  if (g === undefined) return { t, e, s };
  if (typeof g !== 'number' || !Number.isInteger(g) || g < 1) return null;
  return { t, e, s, g };
}

export interface VerdictInput {
  /** Null when the token's signature did not verify (forged, altered, another site). */
  claims: TicketClaims | null;
  eventId: number;
  tickets: ReadonlyMap<string, DoorTicket>;
  checkins: ReadonlyMap<string, DoorCheckin>;
  /** The door's events, to name the event another event's ticket is for. */
  events?: readonly DoorEventSummary[];
  /** The device's time: before the evening's check-in opens a valid ticket is "too early". */
  now?: Date;
}

/** rules "Tickets and the door": check-in opens this long before an evening's start. */
export const CHECKIN_OPENS_BEFORE_START_MS = 12 * 60 * 60 * 1000;

/** When check-in opens for an event starting at `startsAt`; null for an undated one. */
export function checkinOpensAt(startsAt: string | null | undefined): number | null {
  const start = startsAt ? Date.parse(startsAt) : Number.NaN;
  return Number.isNaN(start) ? null : start - CHECKIN_OPENS_BEFORE_START_MS;
}

/** The opening (ISO 8601) when `now` lies before the event's check-in opens; else null. */
function notOpenYet(
  events: readonly DoorEventSummary[] | undefined,
  eventId: number | undefined,
  now: Date | undefined,
): string | null {
  if (!now || eventId === undefined) return null;
  const opens = checkinOpensAt(events?.find((e) => e.id === eventId)?.startsAt);
  return opens !== null && now.getTime() < opens ? new Date(opens).toISOString() : null;
}

/** The first check-in of a ticket: the server's list or this device, whichever was earlier. */
export function firstCheckin(
  ticket: DoorTicket,
  local: DoorCheckin | undefined,
): { at: string; device: string | null } | null {
  const server = ticket.checkedInAt
    ? { at: ticket.checkedInAt, device: ticket.checkedInDevice ?? null }
    : null;
  if (!server) return local ? { at: local.at, device: local.device } : null;
  if (!local) return server;
  return Date.parse(local.at) < Date.parse(server.at)
    ? { at: local.at, device: local.device }
    : server;
}

export function decideVerdict({
  claims,
  eventId,
  tickets,
  checkins,
  events,
  now,
}: VerdictInput): DoorVerdict {
  if (!claims) return { kind: 'invalid', reason: 'signature' };
  if (claims.e !== eventId) return otherEvent(claims.e, events);
  const ticket = tickets.get(claims.t);
  // Signed by the site but not in this event's list: a list from before the purchase, or
  // a ticket that was never issued. The door lets nobody in on a guess.
  if (!ticket) return { kind: 'invalid', reason: 'unknown' };
  // rules "Named tickets": a token older than the ticket's generation was passed on. A newer
  // one than the list knows is the site's own signature on a transfer made after the
  // download: valid, and the sync confirms it.
  if ((claims.g ?? 0) < (ticket.generation ?? 0)) return { kind: 'passedOn', ticket };
  return ticketVerdict(ticket, checkins, notOpenYet(events, eventId, now));
}

/**
 * This event's tickets by short code: the current codes, and the codes tickets had before
 * they were passed on (rules "Named tickets"), which `decideCodeVerdict` answers
 * "Weitergegeben". A current code wins over an old one (codes are drawn unique per event).
 */
export function ticketsByCode(tickets: Iterable<DoorTicket>): Map<string, DoorTicket> {
  const byCode = new Map<string, DoorTicket>();
  const current: DoorTicket[] = [];
  for (const ticket of tickets) {
    current.push(ticket);
    for (const old of ticket.passedOnCodes ?? []) byCode.set(old, ticket);
  }
  for (const ticket of current) if (ticket.code) byCode.set(ticket.code, ticket);
  return byCode;
}

/** The verdict on a ticket of this event's list, however it was named (QR code, short code, search). */
export function ticketVerdict(
  ticket: DoorTicket,
  checkins: ReadonlyMap<string, DoorCheckin>,
  /** When check-in opens, if it has not yet (`notOpenYet`). */
  opensAt: string | null = null,
): DoorVerdict {
  if (ticket.status === 'revoked') return { kind: 'revoked', ticket };
  const first = firstCheckin(ticket, checkins.get(ticket.id));
  if (first) return { kind: 'already', ticket, at: first.at, device: first.device };
  if (opensAt) return { kind: 'tooEarly', ticket, opensAt };
  return { kind: 'valid', ticket };
}

export interface CodeVerdictInput {
  /** The typed code, normalized (`normalizeTicketCode`). */
  code: string;
  /** This event's tickets by their code (`ticketsByCode`: old codes of passed-on tickets too). */
  byCode: ReadonlyMap<string, DoorTicket>;
  checkins: ReadonlyMap<string, DoorCheckin>;
  /** The other event whose list has this code (`elsewhere`), or null. */
  otherEventId: number | null;
  events?: readonly DoorEventSummary[];
  /** The event the door checks in for, and the device's time (see `VerdictInput`). */
  eventId?: number;
  now?: Date;
}

/**
 * A typed short code, by the same rules as a scan: this event's ticket gets its verdict,
 * another event's code says which event, and a code nobody issued is "Ungültig". A code is
 * unique within its event only: this event's list is asked first.
 */
export function decideCodeVerdict({
  code,
  byCode,
  checkins,
  otherEventId,
  events,
  eventId,
  now,
}: CodeVerdictInput): DoorVerdict {
  const ticket = byCode.get(code);
  if (ticket && ticket.code !== code) return { kind: 'passedOn', ticket };
  if (ticket) return ticketVerdict(ticket, checkins, notOpenYet(events, eventId, now));
  if (otherEventId !== null) return otherEvent(otherEventId, events);
  return { kind: 'invalid', reason: 'unknown' };
}

function otherEvent(eventId: number, events: readonly DoorEventSummary[] = []): DoorVerdict {
  const known = events.find((e) => e.id === eventId);
  return known
    ? { kind: 'otherEvent', eventId, event: { name: known.name, startsAt: known.startsAt } }
    : { kind: 'otherEvent', eventId };
}

/** "19:02" in Hamburg's time, whatever the device's zone. */
export function doorTime(iso: string): string {
  return formatClock(iso) ?? '';
}

/** "um 19:02 (Tür 2)", the when and where of an earlier check-in. */
export function checkinPlace(at: string, device: string | null): string {
  const time = doorTime(at);
  return [time ? `um ${time}` : '', device ? `(${device})` : ''].filter(Boolean).join(' ');
}

/** The holder as the door greets them: "Karla Kundin (Hafenkontor GmbH)". */
export function holderLabel(ticket: Pick<DoorTicket, 'holder' | 'company'>): string | null {
  if (!ticket.holder) return ticket.company ?? null;
  return ticket.company ? `${ticket.holder} (${ticket.company})` : ticket.holder;
}

/** "VIP · Karla Kundin (Hafenkontor GmbH) · Ticket 2 von 3". */
export function ticketLabel(ticket: DoorTicket): string {
  return [
    ticket.tier,
    holderLabel(ticket),
    ticket.guestList ? 'Gästeliste' : null,
    ticket.seats > 1 ? `Ticket ${ticket.seat} von ${ticket.seats}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

export type VerdictTone = 'valid' | 'warning' | 'danger';

/** What the full-screen verdict says: a one-word headline readable from a metre away. */
export function verdictText(verdict: DoorVerdict): {
  tone: VerdictTone;
  title: string;
  detail: string;
} {
  switch (verdict.kind) {
    case 'valid':
      return { tone: 'valid', title: 'Gültig', detail: ticketLabel(verdict.ticket) };
    case 'already':
      return {
        tone: 'warning',
        title: 'Bereits eingecheckt',
        detail: [checkinPlace(verdict.at, verdict.device), ticketLabel(verdict.ticket)]
          .filter(Boolean)
          .join(' · '),
      };
    case 'revoked':
      return {
        tone: 'danger',
        title: 'Storniert',
        detail: [
          'Die Bestellung wurde erstattet oder storniert.',
          ticketLabel(verdict.ticket),
        ].join(' '),
      };
    case 'tooEarly': {
      const date = formatLongDate(verdict.opensAt);
      const time = doorTime(verdict.opensAt);
      return {
        tone: 'warning',
        title: 'Noch kein Einlass',
        detail: [
          `Der Einlass öffnet ${date ? `am ${date} ` : ''}${time ? `um ${time} ` : ''}(12 Stunden vor Beginn). Das Ticket ist gültig, wurde aber nicht eingecheckt.`,
          ticketLabel(verdict.ticket),
        ]
          .filter(Boolean)
          .join(' '),
      };
    }
    case 'passedOn':
      return {
        tone: 'danger',
        title: 'Weitergegeben',
        // The new holder's name stays off this screen: the person at the door is not them.
        detail: [
          'Dieses Ticket wurde an eine andere Person weitergegeben; dieser Code gilt nicht mehr.',
          [
            verdict.ticket.tier,
            verdict.ticket.seats > 1
              ? `Ticket ${verdict.ticket.seat} von ${verdict.ticket.seats}`
              : null,
          ]
            .filter(Boolean)
            .join(' · '),
        ]
          .filter(Boolean)
          .join(' '),
      };
    case 'otherEvent': {
      const other = verdict.event;
      const date = other ? formatLongDate(other.startsAt) : null;
      return {
        tone: 'danger',
        title: 'Anderes Event',
        detail: other
          ? `Dieses Ticket gilt für „${other.name}“${date ? ` am ${date}` : ''}.`
          : 'Dieses Ticket gilt für ein anderes Event.',
      };
    }
    case 'invalid':
      return {
        tone: 'danger',
        title: 'Ungültig',
        detail:
          verdict.reason === 'unknown'
            ? 'Nicht in der Ticketliste dieses Events.'
            : verdict.reason === 'unreadable'
              ? 'Das ist kein Ticket-Code.'
              : 'Die Signatur stimmt nicht: kein Ticket von uns.',
      };
  }
}

/** Tickets that still count (revoked ones are no longer expected at the door). */
export function doorCounts(
  tickets: Iterable<DoorTicket>,
  checkins: ReadonlyMap<string, DoorCheckin>,
): { checkedIn: number; total: number } {
  let checkedIn = 0;
  let total = 0;
  for (const ticket of tickets) {
    if (ticket.status === 'revoked') continue;
    total += 1;
    if (firstCheckin(ticket, checkins.get(ticket.id))) checkedIn += 1;
  }
  return { checkedIn, total };
}

/** "142 von 180 eingecheckt". */
export function countText({ checkedIn, total }: { checkedIn: number; total: number }): string {
  return `${checkedIn} von ${total} eingecheckt`;
}

/**
 * Today's events first (the door is open tonight), then the next ones, then past ones,
 * newest first. Days are Hamburg's days.
 */
export function orderDoorEvents(
  events: readonly DoorEventSummary[],
  now: Date,
): DoorEventSummary[] {
  const today = startOfBerlinDay(now).getTime();
  const tomorrow = startOfBerlinDay(new Date(today + 36 * 60 * 60 * 1000)).getTime();
  const rank = (event: DoorEventSummary): [number, number] => {
    const at = event.startsAt ? Date.parse(event.startsAt) : Number.NaN;
    if (Number.isNaN(at)) return [3, 0];
    if (at >= today && at < tomorrow) return [0, at];
    if (at >= tomorrow) return [1, at];
    return [2, -at];
  };
  return [...events].sort((a, b) => {
    const [ra, ka] = rank(a);
    const [rb, kb] = rank(b);
    return ra - rb || ka - kb || a.name.localeCompare(b.name, 'de');
  });
}

export function isToday(startsAt: string | null, now: Date): boolean {
  if (!startsAt) return false;
  const at = Date.parse(startsAt);
  const today = startOfBerlinDay(now).getTime();
  const tomorrow = startOfBerlinDay(new Date(today + 36 * 60 * 60 * 1000)).getTime();
  return at >= today && at < tomorrow;
}

/**
 * The camera sees a code many times a second: the same code seen again within this
 * window of its last sighting is the same scan (the scanner slides the window while the
 * code stays in view, so a ticket held up for long is not scanned twice).
 */
export const SCAN_REPEAT_MS = 2000;

export interface LastScan {
  text: string;
  at: number;
}

/** True when `text` is the code just handled and should be ignored. */
export function isRepeatScan(last: LastScan | null, text: string, now: number): boolean {
  return last !== null && last.text === text && now - last.at < SCAN_REPEAT_MS;
}

/** "von Karla Kundin (VIP, 2 von 3)", naming a ticket inside a sentence. */
function ticketOwner(ticket: DoorTicket): string {
  const detail = [ticket.tier, ticket.seats > 1 ? `${ticket.seat} von ${ticket.seats}` : null]
    .filter(Boolean)
    .join(', ');
  const who = ticket.holder ? `von ${ticket.holder}` : ticket.id;
  return detail ? `${who} (${detail})` : who;
}

export type SyncNoticeKind = 'already' | 'revoked' | 'invalid';

/**
 * What the sync log tells the staff when the server's answer differs from what this
 * device showed: someone let the ticket in elsewhere first, or it was revoked meanwhile.
 */
export function syncNotice(
  result: DoorScanResult,
  ticket: DoorTicket | undefined,
): { kind: SyncNoticeKind; text: string } | null {
  const name = ticket ? `Das Ticket ${ticketOwner(ticket)}` : 'Ein Ticket';
  switch (result.status) {
    case 'ok':
      return null;
    case 'already': {
      const time = result.firstScannedAt ? doorTime(result.firstScannedAt) : '';
      const where = [time ? `um ${time}` : '', result.firstDevice ? `an ${result.firstDevice}` : '']
        .filter(Boolean)
        .join(' ');
      return {
        kind: 'already',
        text: `${name} war schon ${where ? `${where} ` : ''}eingecheckt.`,
      };
    }
    case 'revoked':
      return { kind: 'revoked', text: `${name} ist storniert (laut Server).` };
    case 'invalid':
      return { kind: 'invalid', text: `${name} ist laut Server ungültig.` };
    case 'early':
      return {
        kind: 'invalid',
        text: `${name} wurde vor Beginn des Einlasses gescannt und nicht eingecheckt (laut Server).`,
      };
  }
}
