import {
  countText,
  decideCodeVerdict,
  decideVerdict,
  doorCounts,
  isRepeatScan,
  orderDoorEvents,
  parseClaims,
  syncNotice,
  ticketsByCode,
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

describe('decideCodeVerdict (a typed short code, rules "Tickets and the door")', () => {
  const byCode = (...tickets: DoorTicket[]) => new Map(tickets.map((t) => [t.code!, t]));
  const events: DoorEventSummary[] = [
    {
      id: 42,
      name: 'Afterwork im Hafen',
      startsAt: '2026-06-05T17:00:00Z',
      venue: null,
      tickets: 2,
    },
    { id: 7, name: 'Sommerfest', startsAt: '2026-07-10T16:00:00Z', venue: null, tickets: 9 },
  ];

  it('answers by the same rules as a scan: valid, then already, revoked', () => {
    const fresh = ticket('tkt_1', { code: 'K7QM3XPA' });
    expect(
      decideCodeVerdict({
        code: 'K7QM3XPA',
        byCode: byCode(fresh),
        checkins: none,
        otherEventId: null,
      }),
    ).toEqual({ kind: 'valid', ticket: fresh });
    const here = new Map([
      ['tkt_1', { ticketId: 'tkt_1', at: '2026-06-05T17:02:00Z', device: 'Tür 2' }],
    ]);
    expect(
      decideCodeVerdict({
        code: 'K7QM3XPA',
        byCode: byCode(fresh),
        checkins: here,
        otherEventId: null,
      }),
    ).toMatchObject({ kind: 'already', at: '2026-06-05T17:02:00Z', device: 'Tür 2' });
    const revoked = ticket('tkt_2', { code: 'AAAA1111', status: 'revoked' });
    expect(
      verdictText(
        decideCodeVerdict({
          code: 'AAAA1111',
          byCode: byCode(revoked),
          checkins: none,
          otherEventId: null,
        }),
      ).title,
    ).toBe('Storniert');
  });

  it('another event\'s code names that event; a code nobody has is "Ungültig"', () => {
    const other = decideCodeVerdict({
      code: 'ZZZZ9999',
      byCode: byCode(ticket('tkt_1', { code: 'K7QM3XPA' })),
      checkins: none,
      otherEventId: 7,
      events,
    });
    expect(other).toEqual({
      kind: 'otherEvent',
      eventId: 7,
      event: { name: 'Sommerfest', startsAt: '2026-07-10T16:00:00Z' },
    });
    expect(verdictText(other)).toEqual({
      tone: 'danger',
      title: 'Anderes Event',
      detail: 'Dieses Ticket gilt für „Sommerfest“ am Freitag, 10. Juli 2026.',
    });
    const unknown = decideCodeVerdict({
      code: 'ZZZZ9999',
      byCode: new Map(),
      checkins: none,
      otherEventId: null,
    });
    expect(unknown).toEqual({ kind: 'invalid', reason: 'unknown' });
    expect(verdictText(unknown).detail).toBe('Nicht in der Ticketliste dieses Events.');
  });

  it("this event's list is asked first: a code is unique within its event only", () => {
    const mine = ticket('tkt_1', { code: 'K7QM3XPA' });
    expect(
      decideCodeVerdict({ code: 'K7QM3XPA', byCode: byCode(mine), checkins: none, otherEventId: 7 })
        .kind,
    ).toBe('valid');
  });

  it('a scanned ticket of another event names it too, or says so plainly when the device does not know it', () => {
    const claims = { t: 'tkt_9', e: 7, s: 1 };
    const named = decideVerdict({ claims, eventId: 42, tickets: list(), checkins: none, events });
    expect(verdictText(named).detail).toBe(
      'Dieses Ticket gilt für „Sommerfest“ am Freitag, 10. Juli 2026.',
    );
    const plain = decideVerdict({
      claims: { ...claims, e: 8 },
      eventId: 42,
      tickets: list(),
      checkins: none,
      events,
    });
    expect(verdictText(plain).detail).toBe('Dieses Ticket gilt für ein anderes Event.');
  });
});

describe('the check-in window (rules "Tickets and the door")', () => {
  const events: DoorEventSummary[] = [
    {
      id: 42,
      name: 'Afterwork im Hafen',
      startsAt: '2026-06-05T17:00:00Z',
      venue: null,
      tickets: 2,
    },
  ];
  const claims = { t: 'tkt_1', e: 42, s: 1 };
  const at = (iso: string) => new Date(iso);

  it('a valid ticket scanned more than 12 hours before the start is "Noch kein Einlass" with the opening; from then on "Gültig"', () => {
    const early = decideVerdict({
      claims,
      eventId: 42,
      tickets: list(ticket('tkt_1')),
      checkins: none,
      events,
      now: at('2026-06-05T04:59:59Z'),
    });
    expect(early).toMatchObject({ kind: 'tooEarly', opensAt: '2026-06-05T05:00:00.000Z' });
    expect(verdictText(early)).toMatchObject({ tone: 'warning', title: 'Noch kein Einlass' });
    expect(verdictText(early).detail).toContain('um 07:00');
    expect(verdictText(early).detail).toContain('nicht eingecheckt');
    expect(
      decideVerdict({
        claims,
        eventId: 42,
        tickets: list(ticket('tkt_1')),
        checkins: none,
        events,
        now: at('2026-06-05T05:00:00Z'),
      }).kind,
    ).toBe('valid');
  });

  it('a typed code alike; "Storniert" and "Bereits eingecheckt" still say what they say; an undated event has no window', () => {
    const byCode = new Map([['K7QM3XPA', ticket('tkt_1', { code: 'K7QM3XPA' })]]);
    const input = { code: 'K7QM3XPA', byCode, checkins: none, otherEventId: null, events };
    const days = at('2026-06-01T12:00:00Z');
    expect(decideCodeVerdict({ ...input, eventId: 42, now: days }).kind).toBe('tooEarly');
    const revoked = new Map([
      ['K7QM3XPA', ticket('tkt_1', { code: 'K7QM3XPA', status: 'revoked' })],
    ]);
    expect(decideCodeVerdict({ ...input, byCode: revoked, eventId: 42, now: days }).kind).toBe(
      'revoked',
    );
    const undated = [{ ...events[0]!, startsAt: null }];
    expect(decideCodeVerdict({ ...input, events: undated, eventId: 42, now: days }).kind).toBe(
      'valid',
    );
  });

  it('the server\'s "early" is told in the sync log', () => {
    expect(
      syncNotice(
        { scanId: 's1', status: 'early', opensAt: '2026-06-05T05:00:00.000Z' },
        ticket('tkt_1'),
      )?.text,
    ).toMatch(/vor Beginn des Einlasses gescannt/);
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

describe('a guest-list seat at the door (rules "Orders made in the shop")', () => {
  const claims = { t: 'tkt_9', e: 42, s: 1 };

  it('says "Gästeliste" beside the holder; a bought seat does not', () => {
    const guest = ticket('tkt_9', { holder: 'Gustav Gast', guestList: true, seats: 1 });
    const v = decideVerdict({ claims, eventId: 42, tickets: list(guest), checkins: none });
    expect(verdictText(v)).toMatchObject({
      tone: 'valid',
      title: 'Gültig',
      detail: 'VIP · Gustav Gast · Gästeliste',
    });
    const bought = decideVerdict({
      claims,
      eventId: 42,
      tickets: list(ticket('tkt_9', { seats: 1 })),
      checkins: none,
    });
    expect(verdictText(bought).detail).toBe('VIP · Karla Kundin');
  });
});

describe('a ticket passed on at the door (rules "Named tickets")', () => {
  const moved = ticket('tkt_1', {
    holder: 'Mia Meyer',
    company: 'Elbwerk',
    code: 'NEWC0DE1',
    generation: 1,
    passedOnCodes: ['K7QM3XPA'],
  });
  const tickets = list(moved);

  it('the old token is "Weitergegeben", the new one "Gültig" with the holder and company', () => {
    const old = decideVerdict({
      claims: { t: 'tkt_1', e: 42, s: 1 },
      eventId: 42,
      tickets,
      checkins: none,
    });
    expect(old).toEqual({ kind: 'passedOn', ticket: moved });
    expect(verdictText(old)).toEqual({
      tone: 'danger',
      title: 'Weitergegeben',
      detail:
        'Dieses Ticket wurde an eine andere Person weitergegeben; dieser Code gilt nicht mehr. VIP · Ticket 1 von 2',
    });
    // The new holder's name stays off the refusal: the person at the door is not them.
    expect(verdictText(old).detail).not.toContain('Mia');

    const fresh = decideVerdict({
      claims: { t: 'tkt_1', e: 42, s: 1, g: 1 },
      eventId: 42,
      tickets,
      checkins: none,
    });
    expect(fresh).toEqual({ kind: 'valid', ticket: moved });
    expect(verdictText(fresh).detail).toBe('VIP · Mia Meyer (Elbwerk) · Ticket 1 von 2');
  });

  it('a token newer than the list (passed on after the download) is admitted; the sync confirms it', () => {
    const listed = ticket('tkt_1');
    expect(
      decideVerdict({
        claims: { t: 'tkt_1', e: 42, s: 1, g: 1 },
        eventId: 42,
        tickets: list(listed),
        checkins: none,
      }),
    ).toEqual({ kind: 'valid', ticket: listed });
  });

  it('the old short code typed is "Weitergegeben", the new one its ticket’s verdict', () => {
    const byCode = ticketsByCode([moved]);
    expect(
      decideCodeVerdict({ code: 'K7QM3XPA', byCode, checkins: none, otherEventId: null }),
    ).toEqual({
      kind: 'passedOn',
      ticket: moved,
    });
    expect(
      decideCodeVerdict({ code: 'NEWC0DE1', byCode, checkins: none, otherEventId: null }),
    ).toEqual({
      kind: 'valid',
      ticket: moved,
    });
  });

  it('parses the generation of a token and refuses a malformed one', () => {
    expect(parseClaims({ t: 'x', e: 42, s: 1, g: 2 })).toEqual({ t: 'x', e: 42, s: 1, g: 2 });
    expect(parseClaims({ t: 'x', e: 42, s: 1, g: 0 })).toBeNull();
    expect(parseClaims({ t: 'x', e: 42, s: 1, g: '1' })).toBeNull();
  });
});
