import { Module } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { storeRepositoryWith, StoreModule } from '../store/store.module.js';
import { KyselyHoldRepository } from './hold.repository.js';
import { Holds } from './holds.js';
import { HoldRepository } from './holds.port.js';

/**
 * rules "Capacity": one idea of a hold for checkouts and waiting-list offers
 * (docs/decisions/0010-holds.md). Its users get one `Holds` and the holds' port
 * (`HoldRepository`; in their transaction `tx.get(HoldRepository)`); places that came free
 * are published as the `places.released` event by the repository once the transaction that
 * freed them has committed.
 */
@Module({
  imports: [StoreModule],
  providers: [
    storeRepositoryWith(
      HoldRepository,
      EventEmitter2,
      (db, kind, hooks, events) => new KyselyHoldRepository(db, kind, hooks, events),
    ),
    Holds,
  ],
  exports: [Holds, HoldRepository],
})
export class HoldsModule {}
