import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from '../config/config.js';
import { parseSiteSettings } from './site.config.js';
import { SiteCatalog } from './site-catalog.js';
import { siteCatalogProvider, SITE_CATALOG_IMPORTS } from './site-catalog.provider.js';
import { SiteService } from './site.service.js';
import { siteRoutes } from './site.routes.js';
import { providePageFallback } from '../common/page-fallback.js';

/** No route has this path: rendering it gives the site's 404 page. */
const NOT_FOUND_PROBE = '/_seite-nicht-gefunden';

/**
 * Serves the built frontend with per-route meta (search engines and link
 * previews run no JavaScript). Registered last, and only where the products side runs.
 */
@Module({
  imports: [...SITE_CATALOG_IMPORTS],
  providers: [siteCatalogProvider, SiteService],
  exports: [SiteService, SiteCatalog],
})
export class SiteModule implements OnModuleInit {
  private readonly logger = new Logger('Site');

  constructor(
    private readonly config: AppConfig,
    private readonly site: SiteService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async onModuleInit(): Promise<void> {
    const staticDir = this.config.staticDir;
    if (!staticDir) return;
    const settings = parseSiteSettings();
    if (!this.site.loadTemplate(staticDir)) {
      // Without a build there is no page to inject into; the API still works.
      this.logger.warn({
        msg: 'no built frontend, pages are not served',
        staticDir,
        hint: 'npm run build -w frontend, or STATIC_DIR=off',
      });
      return;
    }
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(siteRoutes(this.site, staticDir, settings));
    providePageFallback(fastify, () => this.site.page(NOT_FOUND_PROBE));
    this.logger.log({ msg: 'serving the built frontend', staticDir });
  }
}
