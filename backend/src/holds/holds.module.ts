import { Module } from '@nestjs/common';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { KyselyHoldRepository } from './hold.repository.js';
import { Holds } from './holds.js';
import { HoldRepository } from './holds.port.js';

/**
 * rules "Capacity": one idea of a hold for checkouts and waiting-list offers
 * (docs/decisions/0010-holds.md). Its users get one `Holds` and the holds' port
 * (`HoldRepository`; in their transaction `tx.get(HoldRepository)`); released places are
 * published as the `places.released` event.
 */
@Module({
  imports: [StoreModule],
  providers: [
    storeRepository(HoldRepository, (db, kind) => new KyselyHoldRepository(db, kind)),
    Holds,
  ],
  exports: [Holds, HoldRepository],
})
export class HoldsModule {}
