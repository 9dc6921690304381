import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthIndicators } from './health-indicators.js';

/** Global so any module can inject HealthIndicators and register its readiness check. */
@Global()
@Module({
  controllers: [HealthController],
  providers: [HealthIndicators],
  exports: [HealthIndicators],
})
export class HealthModule {}
