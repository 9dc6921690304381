import type { Kysely, Selectable } from 'kysely';
import type { DoorSessionsTable, StoreSchema } from '../store/store.schema.js';

/** A door session as the store keeps it: never its secret, only the secret's digest. */
export interface StoredDoorSession {
  /** Public and random: how the organizer names a device to end it. */
  id: string;
  secretHash: string;
  /** Digest of the door code's digest it was issued under: a new code ends it. */
  binding: string;
  /** The name the door staff gave the device (the one its scans carry). */
  device: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** The door's sessions, a row each (rules "Tickets and the door"). */
export abstract class DoorSessionRepository {
  abstract add(session: StoredDoorSession): Promise<void>;
  abstract find(id: string): Promise<StoredDoorSession | undefined>;
  /** The device was heard from at `at`, under the name `device` when given. */
  abstract seen(id: string, at: number, device?: string): Promise<void>;
  /** Sessions not run out and issued under `binding`, most recently seen first. */
  abstract active(binding: string, now: number): Promise<StoredDoorSession[]>;
  /** Ends one session; false when it was not there. */
  abstract end(id: string): Promise<boolean>;
  /** Ends every session; returns how many there were. */
  abstract endAll(): Promise<number>;
  /** Forgets sessions that ran out or belong to an older door code. */
  abstract purge(binding: string, now: number): Promise<void>;
}

export class KyselyDoorSessionRepository extends DoorSessionRepository {
  constructor(private readonly db: Kysely<StoreSchema>) {
    super();
  }

  async add(session: StoredDoorSession): Promise<void> {
    await this.db
      .insertInto('door_sessions')
      .values({
        id: session.id,
        secret_hash: session.secretHash,
        binding: session.binding,
        device: session.device,
        created_at: session.createdAt,
        last_seen_at: session.lastSeenAt,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  async find(id: string): Promise<StoredDoorSession | undefined> {
    const row = await this.db
      .selectFrom('door_sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toSession(row) : undefined;
  }

  async seen(id: string, at: number, device?: string): Promise<void> {
    await this.db
      .updateTable('door_sessions')
      .set({ last_seen_at: at, ...(device ? { device } : {}) })
      .where('id', '=', id)
      .execute();
  }

  async active(binding: string, now: number): Promise<StoredDoorSession[]> {
    const rows = await this.db
      .selectFrom('door_sessions')
      .selectAll()
      .where('binding', '=', binding)
      .where('expires_at', '>', now)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toSession);
  }

  async end(id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('door_sessions')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async endAll(): Promise<number> {
    const result = await this.db.deleteFrom('door_sessions').executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async purge(binding: string, now: number): Promise<void> {
    await this.db
      .deleteFrom('door_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('binding', '!=', binding)]))
      .execute();
  }
}

function toSession(row: Selectable<DoorSessionsTable>): StoredDoorSession {
  return {
    id: row.id,
    secretHash: row.secret_hash,
    binding: row.binding,
    device: row.device,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
  };
}
