import { Injectable } from '@nestjs/common';

export interface HealthReport {
  ok: boolean;
  [detail: string]: unknown;
}

export type HealthCheck = () => HealthReport | Promise<HealthReport>;

/** How long one check may take before readiness counts it as failed. */
const CHECK_TIMEOUT_MS = 3_000;

/**
 * Registry for readiness: each module registers what it depends on (catalog, store, …)
 * in `onModuleInit`, so /api/health/ready reports whatever this process actually serves.
 */
@Injectable()
export class HealthIndicators {
  private readonly checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  async report(): Promise<{ ok: boolean; checks: Record<string, HealthReport> }> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await runCheck(check)] as const),
    );
    const checks = Object.fromEntries(entries);
    return { ok: entries.every(([, r]) => r.ok), checks };
  }
}

async function runCheck(check: HealthCheck): Promise<HealthReport> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HealthReport>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([Promise.resolve().then(check), timeout]);
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
