import { Injectable } from '@nestjs/common';
import { addressGroup } from '../orders/client-key.js';

/** rules "Tickets and the door": how many wrong door codes an address may send, and the penalty. */
export const DOOR_LOCKOUT = {
  maxWrong: 5,
  windowMs: 10 * 60_000,
  lockoutMs: 15 * 60_000,
  /** Addresses tracked at once; the oldest is forgotten first, so random ones cannot grow memory. */
  maxTracked: 10_000,
};

interface Entry {
  /** Times of the wrong codes within the window. */
  wrong: number[];
  lockedUntil: number;
}

/**
 * Wrong door codes per client address, with a lockout after too many. While an address is
 * locked out its codes are not even compared: the right one gets the same 429 as a wrong
 * one, so a guesser learns nothing from the attempts past the limit. An IPv6 address counts
 * by its /64 network (one connection is handed a whole /64). Hand-written rather than
 * @fastify/rate-limit: that counts every request, while here only wrong codes count (the
 * door syncs often with its session) and the penalty outlasts the window. The right code
 * does not clear the count either. Counters live in each process, like the other rate
 * limits; nginx's `limit_req` on the same routes is the fence around all of them.
 */
@Injectable()
export class DoorLockout {
  private readonly entries = new Map<string, Entry>();
  private readonly rule = DOOR_LOCKOUT;

  /** Milliseconds the address is still locked out; 0 when it may try. */
  lockedFor(address: string, now: number): number {
    const entry = this.entries.get(addressGroup(address));
    return entry && entry.lockedUntil > now ? entry.lockedUntil - now : 0;
  }

  /** Counts a wrong code; returns the lockout it caused in ms, or 0. */
  wrong(client: string, now: number): number {
    const address = addressGroup(client);
    const entry = this.entries.get(address) ?? { wrong: [], lockedUntil: 0 };
    entry.wrong = entry.wrong.filter((t) => t > now - this.rule.windowMs);
    entry.wrong.push(now);
    if (entry.wrong.length >= this.rule.maxWrong) {
      entry.wrong = [];
      entry.lockedUntil = now + this.rule.lockoutMs;
    }
    // Re-inserted: the Map's order is least recently wrong first.
    this.entries.delete(address);
    this.entries.set(address, entry);
    if (this.entries.size > this.rule.maxTracked) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return this.lockedFor(address, now);
  }
}
