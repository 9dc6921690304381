import { Inject, Injectable } from '@nestjs/common';
import {
  checkinOpensAt,
  guestEmailKey,
  isPastEvent,
  normalizeTicketCode,
  startOfBerlinDay,
  ticketCodeKey,
} from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { parseBody } from '../common/validation.js';
import {
  type CheckIn,
  type CheckinEvent,
  CheckinRepository,
  type DoorTicket,
  type ScanRecord,
  type TicketAtDoor,
} from './door.port.js';
import { type TicketClaims, TicketSigner } from '../tickets/ticket-signer.js';
import {
  type CheckinEventView,
  type DoorTicketList,
  type ScanInput,
  type ScanResult,
  scanSyncSchema,
} from './dto/checkin.dto.js';

const EVENT_NOT_FOUND_MESSAGE = 'Dieses Event gibt es nicht.';

interface ParsedScan {
  scanId: string;
  /** The QR code's token; null for a typed short code. */
  token: string | null;
  /** A typed short code, normalized (null when it cannot be one), with its event. */
  code: { code: string | null; eventId: number } | null;
  /** Epoch ms, never later than the sync's arrival. */
  scannedAt: number;
  device: string;
}

/** A scan's verdict before the store is asked: the ticket its token names, if any. */
interface CheckedScan extends ParsedScan {
  ticketId: string | null;
  claims: TicketClaims | null;
}

/**
 * The door's side of the check-in (rules "Tickets and the door"): the events to choose
 * from, an event's tickets to verify against offline, and the sync of queued scans.
 */
@Injectable()
export class CheckinService {
  constructor(
    @Inject(CheckinRepository) private readonly checkins: CheckinRepository,
    @Inject(TicketSigner) private readonly signer: TicketSigner,
  ) {}

  /** Today's and upcoming events first (soonest first), then undated, then past (latest first). */
  async events(now = new Date()): Promise<{ events: CheckinEventView[] }> {
    const events = await this.checkins.events();
    const rank = (e: CheckinEvent) => {
      const date = e.startsAt ? new Date(e.startsAt) : null;
      if (!date || Number.isNaN(date.getTime())) return { group: 1, time: 0 };
      return isPastEvent(date, now)
        ? { group: 2, time: -date.getTime() }
        : { group: 0, time: date.getTime() };
    };
    const sorted = events
      .map((e) => ({ e, r: rank(e) }))
      .sort((a, b) => a.r.group - b.r.group || a.r.time - b.r.time || a.e.eventId - b.e.eventId);
    return {
      events: sorted.map(({ e }) => ({
        id: e.eventId,
        name: e.eventName,
        startsAt: e.startsAt,
        venue: e.venue,
        tickets: e.valid,
        revoked: e.revoked,
        checkedIn: e.checkedIn,
      })),
    };
  }

  /**
   * Everything the door needs to answer a scan offline, for one event. Holder names only
   * for today's and upcoming events (Berlin's calendar day, as the door's event list sorts
   * them): the door needs them to find a guest tonight, and nobody needs them afterwards.
   * A past event's list keeps its seats, statuses and check-ins for the count. Each ticket
   * carries its short code; for the guest-list search also its order number and a key of
   * the buyer's address (`guestEmailKey`, never the address), for the same events as the
   * names; `elsewhere` the keys of other current events' codes (`ticketCodeKey`), so a code
   * typed at the wrong door is "Anderes Event" without this list holding those codes.
   */
  async tickets(eventIdParam: string, now = new Date()): Promise<DoorTicketList> {
    if (!/^\d{1,10}$/.test(eventIdParam)) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    const eventId = Number(eventIdParam);
    const tickets = await this.checkins.eventTickets(eventId);
    const names = !isPastEventOf(tickets, now);
    return {
      eventId,
      generatedAt: now.toISOString(),
      tickets: tickets.map((t) => ({
        id: t.id,
        seat: t.seat,
        seats: t.seats,
        tier: t.tier,
        holder: names ? t.holder : null,
        // rules "Named tickets": the company beside the name; a ticket passed on with its
        // generation and the codes it had, so the phone refuses those offline.
        ...(names && t.company ? { company: t.company } : {}),
        // A seat nobody was named for yet is found at the door by whoever bought it.
        ...(names && !t.holder && t.buyer ? { buyer: t.buyer } : {}),
        ...(t.generation ? { generation: t.generation } : {}),
        ...(t.passedOnCodes?.length ? { passedOnCodes: [...t.passedOnCodes] } : {}),
        // rules "Orders made in the shop": the door sees who is on the guest list.
        ...(t.guestList ? { guestList: true } : {}),
        status: t.status,
        ...(t.checkedInAt !== null
          ? {
              checkedInAt: new Date(t.checkedInAt).toISOString(),
              checkedInDevice: t.checkedInDevice ?? '',
            }
          : {}),
        ...(t.code ? { code: t.code } : {}),
        ...(names && t.orderNumber ? { orderNumber: t.orderNumber } : {}),
        ...(names && t.email ? { emailKey: guestEmailKey(eventId, t.email) } : {}),
      })),
      elsewhere: await this.elsewhere(eventId, now),
    };
  }

  /** Other events' codes as keys, per event, for events not past (undated ones included). */
  private async elsewhere(
    eventId: number,
    now: Date,
  ): Promise<{ eventId: number; codeKeys: string[] }[]> {
    // A day before today's start in Berlin: the store compares ISO strings, a coarse cut
    // that the calendar check below makes exact.
    const since = new Date(startOfBerlinDay(now).getTime() - 86_400_000).toISOString();
    const byEvent = new Map<number, { startsAt: string | null; code: string }[]>();
    for (const row of await this.checkins.otherEventCodes(eventId, since)) {
      const codes = byEvent.get(row.eventId) ?? [];
      codes.push(row);
      byEvent.set(row.eventId, codes);
    }
    return [...byEvent]
      .filter(([, codes]) => !isPastEventOf(codes, now))
      .sort(([a], [b]) => a - b)
      .map(([id, codes]) => ({
        eventId: id,
        codeKeys: codes.map((c) => ticketCodeKey(c.code)).sort(),
      }));
  }

  /**
   * POST /api/checkin/scans. rules "Tickets and the door" lets devices scan offline and
   * sync later, so the order scans reach the server says nothing about the order they
   * happened in. The first check-in of a ticket is therefore the one with the earliest
   * `scannedAt` (ties: the smaller scan id), whichever device syncs first: two devices
   * that scanned the same ticket end up agreeing, and the later one is told "already" with
   * the first one's time and device. Idempotent by scan id: a scan already synced is not
   * recorded again and never competes with itself; its answer is read from the current
   * first check-in, which differs from the first answer only when an earlier offline scan
   * of the same ticket arrived in between (exactly what that device should learn).
   */
  async sync(body: unknown, now = Date.now()): Promise<{ results: ScanResult[] }> {
    const { scans } = parseBody(scanSyncSchema, body);
    const parsed = scans.map((s) => parseScan(s, now));
    const checked = await this.verify(parsed);

    const results = await this.checkins.transaction(async (repo) => {
      const firstOfId = new Map<string, CheckedScan>();
      for (const scan of checked) if (!firstOfId.has(scan.scanId)) firstOfId.set(scan.scanId, scan);
      const known = await repo.knownScans([...firstOfId.keys()]);
      const fresh = [...firstOfId.values()].filter((s) => !known.has(s.scanId));

      const ticketIds = new Set<string>();
      for (const s of fresh) if (s.ticketId) ticketIds.add(s.ticketId);
      for (const id of known.values()) if (id) ticketIds.add(id);
      const tickets = await repo.ticketsAtDoor([...ticketIds]);

      // A fresh scan's ticket: named by a genuine token whose event and seat match the
      // stored ticket (a token for a ticket this store never issued is not ours), scanned
      // at a time the door could have seen it.
      const genuine = (scan: CheckedScan): TicketAtDoor | null => {
        const ticket = scan.ticketId ? tickets.get(scan.ticketId) : undefined;
        if (!ticket || !scan.claims) return null;
        if (ticket.eventId !== scan.claims.e || ticket.seat !== scan.claims.s) return null;
        // rules "Named tickets": a token of a ticket since passed on admits nobody. A typed
        // code names the ticket only while it is its current one (`ticketsByCode`).
        if (scan.token !== null && (scan.claims.g ?? 0) !== ticket.generation) return null;
        return ticket;
      };
      const ticketOf = (scan: CheckedScan): TicketAtDoor | null => {
        const ticket = genuine(scan);
        return ticket && isPlausibleScanTime(scan.scannedAt, ticket) ? ticket : null;
      };
      /** A valid ticket's scan before check-in opened: when it opens. */
      const earlyOf = (scan: CheckedScan): string | null => {
        const ticket = genuine(scan);
        return ticket?.status === 'valid' ? earlyScanOpening(scan.scannedAt, ticket) : null;
      };

      const earliest = new Map<string, CheckIn>();
      for (const scan of fresh) {
        const ticket = ticketOf(scan);
        if (!ticket || ticket.status !== 'valid') continue;
        const candidate = {
          ticketId: ticket.id,
          scanId: scan.scanId,
          scannedAt: scan.scannedAt,
          device: scan.device,
        };
        const held = earliest.get(ticket.id);
        if (!held || isEarlier(candidate, held)) earliest.set(ticket.id, candidate);
      }
      await repo.keepEarliest([...earliest.values()], now);
      const firsts = await repo.firstCheckIns([...ticketIds]);

      const answer = (scanId: string, ticket: TicketAtDoor | null): ScanResult => {
        if (!ticket) return { scanId, status: 'invalid' };
        const first = firsts.get(ticket.id);
        if (first?.scanId === scanId) return { scanId, status: 'ok' };
        if (ticket.status === 'revoked') return { scanId, status: 'revoked' };
        if (!first) return { scanId, status: 'invalid' };
        return {
          scanId,
          status: 'already',
          firstScannedAt: new Date(first.scannedAt).toISOString(),
          firstDevice: first.device,
        };
      };

      const byId = new Map<string, ScanResult>();
      for (const [scanId, ticketId] of known) {
        byId.set(scanId, answer(scanId, ticketId ? (tickets.get(ticketId) ?? null) : null));
      }
      const records: ScanRecord[] = [];
      for (const scan of fresh) {
        const ticket = ticketOf(scan);
        const opensAt = ticket ? null : earlyOf(scan);
        const result: ScanResult = opensAt
          ? { scanId: scan.scanId, status: 'early', opensAt }
          : answer(scan.scanId, ticket);
        byId.set(scan.scanId, result);
        records.push({
          scanId: scan.scanId,
          ticketId: ticket?.id ?? null,
          scannedAt: scan.scannedAt,
          device: scan.device,
          status: result.status,
        });
      }
      await repo.recordScans(records, now);
      // Every scan gets an answer in the order sent, a repeated scan id the same one.
      return checked.map((s) => byId.get(s.scanId)!);
    });
    return { results };
  }

  /**
   * Verifies every distinct token once, before the transaction (CPU work holds no lock). A
   * typed code names the ticket its event has under it: its claims are that ticket's, as
   * if its token had been scanned (the door session vouches for the device, as for a scan).
   */
  private async verify(scans: readonly ParsedScan[]): Promise<CheckedScan[]> {
    const claimsOf = new Map<string, Promise<TicketClaims | null>>();
    for (const s of scans) {
      if (s.token !== null && !claimsOf.has(s.token)) {
        claimsOf.set(s.token, this.signer.verify(s.token));
      }
    }
    const codes = scans.flatMap((s) =>
      s.code?.code ? [{ eventId: s.code.eventId, code: s.code.code }] : [],
    );
    const byCode = codes.length > 0 ? await this.checkins.ticketsByCode(codes) : new Map();
    return Promise.all(
      scans.map(async (s) => {
        if (s.token === null) {
          const found = s.code?.code ? byCode.get(`${s.code.eventId}:${s.code.code}`) : undefined;
          const claims = found ? { t: found.id, e: found.eventId, s: found.seat } : null;
          return { ...s, claims, ticketId: claims?.t ?? null };
        }
        const claims = await claimsOf.get(s.token)!;
        return { ...s, claims, ticketId: claims?.t ?? null };
      }),
    );
  }
}

/**
 * Past when every ticket's start (the catalog's date when it was issued; a date moved later
 * counts from its latest) lies before today in Berlin. Undated events are never past.
 */
function isPastEventOf(tickets: readonly Pick<DoorTicket, 'startsAt'>[], now: Date): boolean {
  let latest = Number.NaN;
  for (const t of tickets) {
    const start = t.startsAt ? Date.parse(t.startsAt) : Number.NaN;
    if (Number.isNaN(start)) return false;
    latest = Number.isNaN(latest) ? start : Math.max(latest, start);
  }
  return !Number.isNaN(latest) && isPastEvent(new Date(latest), now);
}

/**
 * The earliest scan is the first check-in, so a scan time must be one the door could have
 * seen: not before the ticket existed, nor more than 12 hours before its event starts. Any
 * other time ("1970", sent by hand) is answered "invalid" (a valid ticket's scan after its
 * issue but before check-in opened: "early") and never replaces the real first check-in. A time later than the sync's arrival was capped on the way in, so a device clock
 * running ahead can only make its own scan later, never earlier than another's.
 */
function isPlausibleScanTime(scannedAt: number, ticket: TicketAtDoor): boolean {
  if (scannedAt < ticket.issuedAt) return false;
  const opens = checkinOpensAt(ticket.startsAt);
  return opens === null || scannedAt >= opens;
}

/**
 * rules "Tickets and the door": a genuine ticket scanned after its issue but before check-in
 * opened (a practice scan days before): its opening, so the door says "too early" instead of
 * "invalid"; null otherwise.
 */
function earlyScanOpening(scannedAt: number, ticket: TicketAtDoor): string | null {
  const opens = checkinOpensAt(ticket.startsAt);
  return scannedAt >= ticket.issuedAt && opens !== null && scannedAt < opens
    ? new Date(opens).toISOString()
    : null;
}

/** A scan cannot have happened after it reached the server: a fast device clock is capped. */
function parseScan(scan: ScanInput, now: number): ParsedScan {
  const at = typeof scan.scannedAt === 'number' ? scan.scannedAt : Date.parse(scan.scannedAt);
  return {
    scanId: scan.scanId,
    token: scan.token ?? null,
    code:
      scan.token === undefined && scan.code !== undefined && scan.eventId !== undefined
        ? { code: normalizeTicketCode(scan.code), eventId: scan.eventId }
        : null,
    scannedAt: Math.min(at, now),
    device: scan.device,
  };
}

function isEarlier(a: CheckIn, b: CheckIn): boolean {
  return a.scannedAt < b.scannedAt || (a.scannedAt === b.scannedAt && a.scanId < b.scanId);
}
