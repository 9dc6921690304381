import { CheckinService } from '../../src/checkin/checkin.service.js';
import { newDoorCode, normalizeDoorCode } from '../../src/checkin/door-code.js';
import { DOOR_LOCKOUT, DoorLockout } from '../../src/checkin/door-lockout.js';
import { type CheckinEvent, CheckinRepository } from '../../src/store/store.port.js';
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
  ticketsAtDoor = notUsed;
  keepEarliest = notUsed;
  firstCheckIns = notUsed;
  recordScans = notUsed;
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
  it('is three groups of four characters without look-alikes', () => {
    const codes = Array.from({ length: 200 }, newDoorCode);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){2}$/);
    expect(new Set(codes).size).toBe(codes.length);
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

  it('forgets wrong codes older than the window, and all of them after the right one', () => {
    const sut = new DoorLockout();
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong - 1; i += 1) sut.wrong('a', i);
    expect(sut.wrong('a', DOOR_LOCKOUT.windowMs + 10)).toBe(0);
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong - 1; i += 1) sut.wrong('b', i);
    sut.passed('b');
    expect(sut.wrong('b', 10)).toBe(0);
  });
});
