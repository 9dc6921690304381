import { randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { SerialRunner } from '../common/serial-runner.js';
import { SettingsRepository } from '../store/store.port.js';
import { CatalogService } from './catalog.service.js';

/** The setting every process watches (docs/decisions/0014). */
export const CATALOG_VERSION_KEY = 'catalog_version';
/** How often each process looks: a change reaches every process within this, well under 5 s. */
export const CATALOG_VERSION_POLL_MS = 2_000;

/**
 * rules "WooCommerce webhooks": a product or coupon change in the shop reaches every
 * process within seconds, not only the one WooCommerce delivered it to
 * (docs/decisions/0014-catalog-changes-reach-every-process.md). Whoever learns of a change
 * (`changed`: the shop's webhook, a refund that put stock back) drops its own catalog cache
 * and writes a new `catalog_version` into the store's settings; every process reads that
 * one row every two seconds and drops its cache when the value is not the one it saw last.
 * One indexed read per process and interval, on SQLite and PostgreSQL alike.
 */
@Injectable()
export class CatalogVersion implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Catalog');
  private readonly runner = new SerialRunner(
    () => this.look(),
    (err) => this.failed(err),
  );
  /** The version this process's cache reflects; undefined until the first look. */
  private seen: string | undefined;
  private failing = false;

  constructor(
    @Inject(SettingsRepository) private readonly settings: SettingsRepository,
    @Inject(CatalogService) private readonly catalog: CatalogService,
  ) {}

  onApplicationBootstrap(): void {
    this.runner.start(CATALOG_VERSION_POLL_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
  }

  /**
   * The catalog changed in the shop: this process's cache is dropped now, the others' at
   * their next look. Throws when the store cannot take the new version (the caller's
   * delivery or job is then tried again).
   */
  async changed(): Promise<void> {
    this.catalog.invalidate();
    const version = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
    await this.settings.put(CATALOG_VERSION_KEY, version, Date.now());
    // This process has dropped its cache for this version already.
    this.seen = version;
  }

  /** One look at the version (tests wait for it rather than for the timer). */
  async look(): Promise<void> {
    const version = (await this.settings.get(CATALOG_VERSION_KEY)) ?? '';
    if (this.failing) {
      this.failing = false;
      this.logger.log({ msg: 'catalog version readable again' });
    }
    // The first look only learns the version: a process that just started has a fresh cache.
    if (this.seen !== undefined && version !== this.seen) {
      this.catalog.invalidate();
      this.logger.log({ msg: 'catalog changed in another process; cache dropped' });
    }
    this.seen = version;
  }

  private failed(err: unknown): void {
    // Logged once per outage: the store being away is reported by its readiness check.
    if (this.failing) return;
    this.failing = true;
    this.logger.warn({
      msg: 'could not read the catalog version; caches expire by their TTL meanwhile',
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
