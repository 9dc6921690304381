import type { StoreDb } from '../store/store.database.js';
import { ContactRepository } from './contact.port.js';

export class KyselyContactRepository extends ContactRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async add(message: { name: string; email: string; message: string }, now: number): Promise<void> {
    await this.db
      .insertInto('contact_messages')
      .values({
        name: message.name,
        email: message.email,
        message: message.message,
        created_at: now,
      })
      .execute();
  }
}
