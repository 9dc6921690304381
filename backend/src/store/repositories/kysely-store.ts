import type { StoreDatabase } from '../store.database.js';
import { Store, type StoreTransaction } from '../store.port.js';
import { KyselyHoldRepository } from './hold.repository.js';
import { KyselyJobRepository } from './job.repository.js';
import { KyselyOrderRepository } from './order.repository.js';
import { KyselyTicketRepository } from './ticket.repository.js';
import { KyselyWaitlistRepository } from './waitlist.repository.js';
import { KyselyWebhookEventRepository } from './webhook-event.repository.js';

/** Write transactions over the store's database, with every repository bound to them. */
export class KyselyStore extends Store {
  constructor(private readonly database: StoreDatabase) {
    super();
  }

  write<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.database.write((trx) =>
      work({
        orders: new KyselyOrderRepository(trx, this.database.kind),
        holds: new KyselyHoldRepository(trx, this.database.kind),
        jobs: new KyselyJobRepository(trx),
        webhookEvents: new KyselyWebhookEventRepository(trx),
        tickets: new KyselyTicketRepository(trx),
        waitlist: new KyselyWaitlistRepository(trx, this.database.kind),
      }),
    );
  }
}
