import { CheckinService } from '../../src/door/checkin.service.js';
import { newDoorCode, normalizeDoorCode } from '../../src/door/door-code.js';
import { DOOR_LOCKOUT, DoorLockout } from '../../src/door/door-lockout.js';
import { doorSessionExpiry } from '../../src/door/door-session.js';
import { parseCheckinCode } from '../../src/config/config.js';
import { type CheckinEvent, CheckinRepository } from '../../src/door/door.port.js';
import type { TicketSigner } from '../../src/tickets/ticket-signer.js';

/** Only `events()` is asked in these tests. */
class FakeCheckins extends CheckinRepository {
  constructor(private readonly list: CheckinEvent[]) {
    super();
  }
  async events() {
    return this.list;
  }
  eventTickets = notUsed;
  transaction = notUsed;
  knownScans = notUsed;
  ticketsByCode = notUsed;
  otherEventCodes = notUsed;
  ticketsAtDoor = notUsed;
  keepEarliest = notUsed;
  firstCheckIns = notUsed;
  recordScans = notUsed;
  removeCheckIn = notUsed;
}

function notUsed(): never {
  throw new Error('not used here');
}

function event(eventId: number, startsAt: string | null): CheckinEvent {
  return {
    eventId,
    eventName: `Event ${eventId}`,
    startsAt,
    venue: null,
    valid: 1,
    revoked: 0,
    checkedIn: 0,
  };
}

describe('the events the door chooses from', () => {
  it("today's event first (even once it started), then upcoming, undated, and past ones latest first", async () => {
    const sut = new CheckinService(
      new FakeCheckins([
        event(1, '2026-11-01T18:00:00.000Z'),
        event(2, '2026-12-24T18:00:00.000Z'),
        event(3, null),
        event(4, '2026-11-23T17:00:00.000Z'),
        event(5, '2026-11-20T18:00:00.000Z'),
        event(6, '2026-11-30T18:00:00.000Z'),
      ]),
      {} as TicketSigner,
    );
    // 21:30 in Hamburg: event 4 began at 18:00 the same day.
    const { events } = await sut.events(new Date('2026-11-23T20:30:00.000Z'));
    expect(events.map((e) => e.id)).toEqual([4, 6, 2, 3, 5, 1]);
  });
});

describe('the door code', () => {
  it('is four groups of four characters without look-alikes: more than 60 bits', () => {
    const codes = Array.from({ length: 200 }, newDoorCode);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
    expect(new Set(codes).size).toBe(codes.length);
    expect(16 * Math.log2(31)).toBeGreaterThan(60);
  });

  it('always has letters and digits, so a made code is accepted as CHECKIN_CODE', () => {
    // One random code in about 240 has no digit; 2,000 would meet one almost surely.
    for (const code of Array.from({ length: 2000 }, newDoorCode)) {
      expect(() => parseCheckinCode(code)).not.toThrow();
    }
  });

  it('ignores case, spaces and dashes', () => {
    expect(normalizeDoorCode(' ab7k-m3xd r9tb ')).toBe('AB7KM3XDR9TB');
  });
});

describe('the lockout after wrong door codes', () => {
  it('locks an address after 5 wrong codes within 10 minutes, for 15 minutes', () => {
    const sut = new DoorLockout();
    const t0 = 1_000_000;
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong - 1; i += 1) expect(sut.wrong('a', t0 + i)).toBe(0);
    expect(sut.lockedFor('b', t0)).toBe(0);
    expect(sut.wrong('a', t0 + 10)).toBe(DOOR_LOCKOUT.lockoutMs);
    expect(sut.lockedFor('a', t0 + 10 + DOOR_LOCKOUT.lockoutMs - 1)).toBe(1);
    expect(sut.lockedFor('a', t0 + 10 + DOOR_LOCKOUT.lockoutMs)).toBe(0);
  });

  it('forgets wrong codes older than the window', () => {
    const sut = new DoorLockout();
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong - 1; i += 1) sut.wrong('a', i);
    expect(sut.wrong('a', DOOR_LOCKOUT.windowMs + 10)).toBe(0);
  });
});

describe('door sessions', () => {
  it('last until the end of the next day in Berlin, summer and winter time alike', () => {
    // Friday 23:30 in Hamburg (winter): valid through Saturday, until Sunday 00:00.
    expect(new Date(doorSessionExpiry(Date.parse('2026-11-27T22:30:00Z'))).toISOString()).toBe(
      '2026-11-28T23:00:00.000Z',
    );
    // Friday 00:30 in Hamburg, still Thursday in UTC: until Sunday 00:00 as well.
    expect(new Date(doorSessionExpiry(Date.parse('2026-11-26T23:30:00Z'))).toISOString()).toBe(
      '2026-11-28T23:00:00.000Z',
    );
    // Saturday before the clocks go back: Monday 00:00 is in winter time.
    expect(new Date(doorSessionExpiry(Date.parse('2026-10-24T12:00:00Z'))).toISOString()).toBe(
      '2026-10-25T23:00:00.000Z',
    );
    expect(new Date(doorSessionExpiry(Date.parse('2026-07-01T12:00:00Z'))).toISOString()).toBe(
      '2026-07-02T22:00:00.000Z',
    );
  });
});
