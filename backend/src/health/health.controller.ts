import { Controller, Get, Header, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '../config/config.js';
import { HealthIndicators } from './health-indicators.js';

@Controller('health')
export class HealthController {
  constructor(
    private readonly indicators: HealthIndicators,
    private readonly config: AppConfig,
  ) {}

  /** Liveness: the process answers. Dependencies belong to readiness. */
  @Get()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  live() {
    return {
      status: 'ok',
      modules: this.config.modules,
      uptimeSeconds: Math.round(process.uptime()),
    };
  }

  /** Readiness: 503 while a dependency this process serves is not usable. */
  @Get('ready')
  @Header('Cache-Control', 'no-store')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.indicators.report();
    reply.status(report.ok ? 200 : 503);
    return { status: report.ok ? 'ready' : 'not_ready', ...report };
  }
}
