import { Module } from '@nestjs/common';
import { Holds } from './holds.js';

/**
 * rules "Capacity": one idea of a hold for checkouts and waiting-list offers
 * (docs/decisions/0010-holds.md). The store binds the holds' port (`HoldRepository`, and
 * `StoreTransaction.holds` in a transaction); this module gives its users one `Holds`.
 */
@Module({
  providers: [Holds],
  exports: [Holds],
})
export class HoldsModule {}
