import {
  countText,
  decideVerdict,
  doorCounts,
  isRepeatScan,
  orderDoorEvents,
  parseClaims,
  syncNotice,
  tokenFromInput,
  verdictText,
} from './door.verdict.js';
import type { DoorCheckin, DoorEventSummary, DoorTicket } from './door.types.js';

const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJ0IjoidGt0XzEiLCJlIjo0MiwicyI6MX0.c2lnbmF0dXJl';

const ticket = (id: string, extra: Partial<DoorTicket> = {}): DoorTicket => ({
  id,
  seat: 1,
  seats: 2,
  tier: 'VIP',
  holder: 'Karla Kundin',
  status: 'valid',
  ...extra,
});

const list = (...tickets: DoorTicket[]) => new Map(tickets.map((t) => [t.id, t]));
const none = new Map<string, DoorCheckin>();

describe('tokenFromInput (manual entry and camera, rules "Tickets and the door")', () => {
  it('takes the bare token, trimmed', () => {
    expect(tokenFromInput(`  ${TOKEN}\n`)).toBe(TOKEN);
  });
  it('takes the ticket page address, encoded or not', () => {
    expect(tokenFromInput(`https://afterwork.example/tickets/${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromInput(`/tickets/${encodeURIComponent(TOKEN)}?x=1`)).toBe(TOKEN);
  });
  it('refuses anything that is not a compact JWS', () => {
    expect(tokenFromInput('')).toBeNull();
    expect(tokenFromInput('hallo welt')).toBeNull();
    expect(tokenFromInput('a.b')).toBeNull();
    expect(tokenFromInput(`${'a'.repeat(600)}.${'b'.repeat(600)}.c`)).toBeNull();
    expect(tokenFromInput('https://x/tickets/%E0%A4%A')).toBeNull();
  });
});

describe('parseClaims', () => {
  it("accepts the signer's shape only", () => {
    expect(parseClaims({ t: 'tkt_1', e: 42, s: 1 })).toEqual({ t: 'tkt_1', e: 42, s: 1 });
    expect(parseClaims({ t: '', e: 42, s: 1 })).toBeNull();
    expect(parseClaims({ t: 'x', e: '42', s: 1 })).toBeNull();
    expect(parseClaims({ t: 'x', e: 42, s: 0 })).toBeNull();
    expect(parseClaims(null)).toBeNull();
  });
});

describe('decideVerdict', () => {
  const claims = { t: 'tkt_1', e: 42, s: 1 };

  it('a bad signature is "Ungültig"', () => {
    const v = decideVerdict({
      claims: null,
      eventId: 42,
      tickets: list(ticket('tkt_1')),
      checkins: none,
    });
    expect(v).toEqual({ kind: 'invalid', reason: 'signature' });
    expect(verdictText(v).title).toBe('Ungültig');
  });

  it('another event\'s ticket is "Anderes Event"', () => {
    const v = decideVerdict({
      claims: { ...claims, e: 7 },
      eventId: 42,
      tickets: list(),
      checkins: none,
    });
    expect(v).toEqual({ kind: 'otherEvent', eventId: 7 });
    expect(verdictText(v)).toMatchObject({ tone: 'danger', title: 'Anderes Event' });
  });

  it('an id missing from the event\'s list is "Ungültig"', () => {
    const v = decideVerdict({
      claims,
      eventId: 42,
      tickets: list(ticket('tkt_2')),
      checkins: none,
    });
    expect(v).toEqual({ kind: 'invalid', reason: 'unknown' });
  });

  it('a revoked ticket is "Storniert", even when it was checked in before', () => {
    const t = ticket('tkt_1', { status: 'revoked', checkedInAt: '2026-06-05T17:02:00Z' });
    const v = decideVerdict({ claims, eventId: 42, tickets: list(t), checkins: none });
    expect(v.kind).toBe('revoked');
    expect(verdictText(v)).toMatchObject({ tone: 'danger', title: 'Storniert' });
  });

  it('a fresh ticket is "Gültig" with tier and holder', () => {
    const v = decideVerdict({
      claims,
      eventId: 42,
      tickets: list(ticket('tkt_1')),
      checkins: none,
    });
    expect(v.kind).toBe('valid');
    expect(verdictText(v)).toEqual({
      tone: 'valid',
      title: 'Gültig',
      detail: 'VIP · Karla Kundin · Ticket 1 von 2',
    });
  });

  it('a ticket checked in here or on the server is "Bereits eingecheckt" with the first time and door', () => {
    const server = ticket('tkt_1', {
      checkedInAt: '2026-06-05T17:10:00Z',
      checkedInDevice: 'Tür 1',
    });
    const local = new Map([
      ['tkt_1', { ticketId: 'tkt_1', at: '2026-06-05T17:02:00Z', device: 'Tür 2' }],
    ]);
    const v = decideVerdict({ claims, eventId: 42, tickets: list(server), checkins: local });
    expect(v).toMatchObject({ kind: 'already', at: '2026-06-05T17:02:00Z', device: 'Tür 2' });
    // 17:02 UTC is 19:02 in Hamburg's summer.
    expect(verdictText(v).detail).toBe('um 19:02 (Tür 2) · VIP · Karla Kundin · Ticket 1 von 2');
    const fromServer = decideVerdict({
      claims,
      eventId: 42,
      tickets: list(server),
      checkins: none,
    });
    expect(fromServer).toMatchObject({ kind: 'already', device: 'Tür 1' });
  });
});

describe('counter', () => {
  it('counts check-ins from the list and this device, without revoked tickets', () => {
    const tickets = [
      ticket('a', { checkedInAt: '2026-06-05T17:00:00Z' }),
      ticket('b'),
      ticket('c', { status: 'revoked' }),
      ticket('d'),
    ];
    const local = new Map([['b', { ticketId: 'b', at: '2026-06-05T17:05:00Z', device: 'Tür 1' }]]);
    expect(countText(doorCounts(tickets, local))).toBe('2 von 3 eingecheckt');
  });
});

describe('orderDoorEvents', () => {
  const at = (iso: string | null, name: string, id: number): DoorEventSummary => ({
    id,
    name,
    startsAt: iso,
    venue: null,
    tickets: 0,
  });
  it("puts today's event (Hamburg's day) first, then upcoming, then past ones", () => {
    const now = new Date('2026-06-05T21:30:00Z'); // 23:30 in Hamburg
    const sorted = orderDoorEvents(
      [
        at('2026-06-01T17:00:00Z', 'Vorbei', 1),
        at('2026-06-12T17:00:00Z', 'Nächste Woche', 2),
        at('2026-06-05T17:00:00Z', 'Heute', 3),
        at(null, 'Ohne Datum', 4),
        at('2026-06-06T17:00:00Z', 'Morgen', 5),
      ],
      now,
    );
    expect(sorted.map((e) => e.name)).toEqual([
      'Heute',
      'Morgen',
      'Nächste Woche',
      'Vorbei',
      'Ohne Datum',
    ]);
  });
});

describe('isRepeatScan', () => {
  it('ignores the same code for two seconds, never a different one', () => {
    const last = { text: TOKEN, at: 1000 };
    expect(isRepeatScan(null, TOKEN, 1000)).toBe(false);
    expect(isRepeatScan(last, TOKEN, 2999)).toBe(true);
    expect(isRepeatScan(last, TOKEN, 3000)).toBe(false);
    expect(isRepeatScan(last, 'other', 1001)).toBe(false);
  });
});

describe('syncNotice', () => {
  it('tells the staff when another door was first', () => {
    const notice = syncNotice(
      {
        scanId: 's',
        status: 'already',
        firstScannedAt: '2026-06-05T17:02:00Z',
        firstDevice: 'Tür 2',
      },
      ticket('tkt_1'),
    );
    expect(notice).toEqual({
      kind: 'already',
      text: 'Das Ticket von Karla Kundin (VIP, 1 von 2) war schon um 19:02 an Tür 2 eingecheckt.',
    });
    expect(syncNotice({ scanId: 's', status: 'ok' }, ticket('x'))).toBeNull();
    expect(syncNotice({ scanId: 's', status: 'revoked' }, undefined)?.text).toBe(
      'Ein Ticket ist storniert (laut Server).',
    );
  });
});
