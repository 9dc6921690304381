import { Controller, Get, Header, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '../config/config.js';
import { HealthIndicators, type HealthReport } from './health-indicators.js';

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
    if (report.ok) return { status: 'ready', ...report };
    return { status: 'not_ready', ...report, message: notReadyMessage(report.checks) };
  }
}

/** Why the process is not ready, in German: each failing check's own message, or its name. */
function notReadyMessage(checks: Record<string, HealthReport>): string {
  return Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([name, check]) =>
      typeof check.message === 'string' ? check.message : `„${name}“ ist nicht bereit.`,
    )
    .join(' ');
}
