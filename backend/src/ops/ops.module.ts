import { Global, Module } from '@nestjs/common';
import { MetricsRegistry } from './dependency-metrics.js';

/** Global so adapters' factories and modules can add to the process's metrics. */
@Global()
@Module({
  providers: [MetricsRegistry],
  exports: [MetricsRegistry],
})
export class OpsModule {}
