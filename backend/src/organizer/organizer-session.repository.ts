import type { Kysely, Selectable } from 'kysely';
import type { OrganizerSessionsTable, StoreSchema } from '../store/store.schema.js';

/** A signed-in organizer as the store keeps it (rules "The organizer"). */
export interface StoredOrganizerSession {
  idHash: string;
  method: 'code' | 'wordpress';
  binding: string;
  name: string | null;
  email: string | null;
  username: string | null;
  sealedPassword: string | null;
  checkedAt: number;
  createdAt: number;
  expiresAt: number;
}

/** The organizer's sessions: a row each, found by the digest of the cookie's secret. */
export abstract class OrganizerSessionRepository {
  abstract add(session: StoredOrganizerSession): Promise<void>;
  abstract find(idHash: string): Promise<StoredOrganizerSession | undefined>;
  /** WordPress said yes again at `at`. */
  abstract checked(idHash: string, at: number): Promise<void>;
  /** Ends one session; false when it was not there. */
  abstract end(idHash: string): Promise<boolean>;
  /** Ends every session; returns how many there were. */
  abstract endAll(): Promise<number>;
  /** Forgets the sessions that ran out (their names and addresses with them). */
  abstract purge(now: number): Promise<void>;
}

export class KyselyOrganizerSessionRepository extends OrganizerSessionRepository {
  constructor(private readonly db: Kysely<StoreSchema>) {
    super();
  }

  async add(session: StoredOrganizerSession): Promise<void> {
    await this.db
      .insertInto('organizer_sessions')
      .values({
        id_hash: session.idHash,
        method: session.method,
        binding: session.binding,
        name: session.name,
        email: session.email,
        username: session.username,
        sealed_password: session.sealedPassword,
        checked_at: session.checkedAt,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  async find(idHash: string): Promise<StoredOrganizerSession | undefined> {
    const row = await this.db
      .selectFrom('organizer_sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return row ? toSession(row) : undefined;
  }

  async checked(idHash: string, at: number): Promise<void> {
    await this.db
      .updateTable('organizer_sessions')
      .set({ checked_at: at })
      .where('id_hash', '=', idHash)
      .execute();
  }

  async end(idHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('organizer_sessions')
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async endAll(): Promise<number> {
    const result = await this.db.deleteFrom('organizer_sessions').executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async purge(now: number): Promise<void> {
    await this.db.deleteFrom('organizer_sessions').where('expires_at', '<=', now).execute();
  }
}

function toSession(row: Selectable<OrganizerSessionsTable>): StoredOrganizerSession {
  return {
    idHash: row.id_hash,
    method: row.method === 'wordpress' ? 'wordpress' : 'code',
    binding: row.binding,
    name: row.name,
    email: row.email,
    username: row.username,
    sealedPassword: row.sealed_password,
    checkedAt: Number(row.checked_at),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}
