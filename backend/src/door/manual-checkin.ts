import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type CheckIn, CheckinRepository } from './door.port.js';

/** What a check-in by hand found: made now, made before (the first one wins), or refused. */
export type ManualCheckInOutcome =
  | { outcome: 'ok'; checkIn: CheckIn }
  | { outcome: 'already'; checkIn: CheckIn }
  | { outcome: 'revoked' }
  | { outcome: 'unknown' };

/**
 * rules "The organizer": check-ins made by hand from the guest list, under the door's rules
 * (rules "Tickets and the door"). One is recorded as a scan of the door would be, with its
 * own scan id and device, so the door phones list it at their next download and the first
 * check-in still wins: a door scan made earlier offline and synced later replaces it. The
 * time is the server's, as a person signed in made it now (no device clock to doubt).
 */
@Injectable()
export class ManualCheckins {
  private readonly logger = new Logger('Door');

  constructor(@Inject(CheckinRepository) private readonly checkins: CheckinRepository) {}

  /** Checks the ticket of `eventId` in now, unless it is revoked or checked in already. */
  checkIn(
    eventId: number,
    ticketId: string,
    device: string,
    now = Date.now(),
  ): Promise<ManualCheckInOutcome> {
    return this.checkins.transaction(async (repo) => {
      const ticket = (await repo.ticketsAtDoor([ticketId])).get(ticketId);
      if (!ticket || ticket.eventId !== eventId) return { outcome: 'unknown' };
      if (ticket.status !== 'valid') return { outcome: 'revoked' };
      const first = (await repo.firstCheckIns([ticketId])).get(ticketId);
      if (first) return { outcome: 'already', checkIn: first };
      const checkIn: CheckIn = {
        ticketId,
        scanId: `manual-${randomUUID()}`,
        scannedAt: now,
        device,
      };
      await repo.keepEarliest([checkIn], now);
      await repo.recordScans([{ ...checkIn, status: 'ok' }], now);
      this.logger.log({ msg: 'checked in by hand', ticketId, device });
      return { outcome: 'ok', checkIn };
    });
  }

  /**
   * Undoes the ticket's check-in, whichever device made it (rules "The organizer": a wrong
   * guest tapped at the door is put right here). Null when the ticket is not the event's;
   * `removed` null when it was not checked in.
   */
  undo(eventId: number, ticketId: string): Promise<{ removed: CheckIn | null } | null> {
    return this.checkins.transaction(async (repo) => {
      const ticket = (await repo.ticketsAtDoor([ticketId])).get(ticketId);
      if (!ticket || ticket.eventId !== eventId) return null;
      const removed = await repo.removeCheckIn(ticketId);
      if (removed) {
        this.logger.log({ msg: 'check-in undone', ticketId, device: removed.device });
      }
      return { removed };
    });
  }
}
