import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { berlinParts, berlinWallTimeToInstant } from '@awhh/machines';
import { JobHandlers } from '../jobs/job-handlers.js';
import { DoorCode } from './door-code.js';
import { DoorSessionRepository, type StoredDoorSession } from './door-session.repository.js';

/** Every door session starts so: the guard tells it from a door code at a glance. */
export const DOOR_SESSION_PREFIX = 'door.';
const TOKEN = /^door\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;
/** The name of a device whose staff gave none (the door app's own default). */
export const DEFAULT_DOOR_DEVICE = 'Einlass';
const DEVICE_NAME_LENGTH = 40;
/** How often a device's "last seen" is written: not per request of a busy door. */
const SEEN_EVERY_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** docs/privacy.md: sessions that ran out (and their device names) go within a day. */
export const DOOR_SESSION_PURGE_JOB = 'door-session-purge';

export interface IssuedDoorSession {
  token: string;
  /** ISO 8601: the end of the next day, Berlin time. */
  expiresAt: string;
}

/** A device signed in at the door, as the organizer's dashboard lists it. */
export interface DoorDevice {
  id: string;
  device: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** Midnight at the end of the day after `now`'s day in Berlin: a door shift and its night. */
export function doorSessionExpiry(now: number): number {
  const today = berlinParts(now);
  return berlinWallTimeToInstant(today.year, today.month, today.day + 2);
}

/** A device's name as the door staff typed it: trimmed, at most 40 characters. */
export function doorDeviceName(name: unknown): string {
  if (typeof name !== 'string') return DEFAULT_DOOR_DEVICE;
  const trimmed = name.replace(/\s+/g, ' ').trim().slice(0, DEVICE_NAME_LENGTH);
  return trimmed || DEFAULT_DOOR_DEVICE;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest();

/**
 * A door session: what a device gets for the right door code, so that the staff type the
 * code once and the phone sends this instead. A random id and a random secret; the store
 * keeps the id, the secret's digest and the door code it was issued under (a digest of the
 * code's digest), so a backup holds nothing a session can be made from, the organizer can
 * end one device's session, and a new door code ends every session at once. It opens
 * /api/checkin and nothing else.
 */
@Injectable()
export class DoorSessions implements OnModuleInit {
  constructor(
    @Inject(DoorCode) private readonly code: DoorCode,
    @Inject(DoorSessionRepository) private readonly sessions: DoorSessionRepository,
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
  ) {}

  onModuleInit(): void {
    this.handlers.recurring(DOOR_SESSION_PURGE_JOB, {
      run: async (now) => {
        await this.sessions.purge(await this.binding(), now);
      },
      firstRunAt: (now) => now + DAY_MS,
      nextRunAt: (now) => now + DAY_MS,
    });
  }

  async issue(device: unknown, now = Date.now()): Promise<IssuedDoorSession> {
    const id = randomBytes(12).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    const expires = doorSessionExpiry(now);
    await this.sessions.add({
      id,
      secretHash: sha256(secret).toString('base64url'),
      binding: await this.binding(),
      device: doorDeviceName(device),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: expires,
    });
    return {
      token: `${DOOR_SESSION_PREFIX}${id}.${secret}`,
      expiresAt: new Date(expires).toISOString(),
    };
  }

  /** The session's id while it is stored, not run out and of the current code; else null. */
  async verify(token: string, now = Date.now()): Promise<string | null> {
    const match = TOKEN.exec(token);
    if (!match) return null;
    const [, id, secret] = match;
    const session = await this.sessions.find(id!);
    if (!session || !(session.expiresAt > now)) return null;
    const presented = sha256(secret!);
    const expected = Buffer.from(session.secretHash, 'base64url');
    if (expected.length !== presented.length || !timingSafeEqual(presented, expected)) {
      return null;
    }
    if (session.binding !== (await this.binding())) return null;
    if (now - session.lastSeenAt >= SEEN_EVERY_MS) await this.sessions.seen(id!, now);
    return id!;
  }

  /** The device's scans carry the name its staff gave it: the dashboard shows that one. */
  async named(id: string, device: unknown, now = Date.now()): Promise<void> {
    if (typeof device !== 'string') return;
    await this.sessions.seen(id, now, doorDeviceName(device));
  }

  /** The devices signed in under the current code, most recently heard from first. */
  async devices(now = Date.now()): Promise<DoorDevice[]> {
    const binding = await this.binding();
    await this.sessions.purge(binding, now);
    return (await this.sessions.active(binding, now)).map(toDevice);
  }

  end(id: string): Promise<boolean> {
    return this.sessions.end(id);
  }

  endAll(): Promise<number> {
    return this.sessions.endAll();
  }

  private async binding(): Promise<string> {
    return sha256(await this.code.digest()).toString('base64url');
  }
}

function toDevice(session: StoredDoorSession): DoorDevice {
  return {
    id: session.id,
    device: session.device,
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    expiresAt: session.expiresAt,
  };
}
