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

/** No route has this path: rendering it gives the site's 404 page (for a URL without a path). */
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
    const settings = parseSiteSettings(staticDir);
    if (!this.site.loadTemplate(staticDir) || !(await this.site.loadRenderer(settings.ssrEntry))) {
      // Without a build there is no page to render; the API still works.
      this.logger.warn({
        msg: 'no built frontend, pages are not served',
        staticDir,
        ssrEntry: settings.ssrEntry,
        hint: 'npm run build -w frontend, or STATIC_DIR=off',
      });
      return;
    }
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(siteRoutes(this.site, staticDir, settings));
    // The page for the request's own address, so the browser hydrates the same 404 page.
    providePageFallback(fastify, (url, userAgent) =>
      this.site.page(url.startsWith('/') ? url : NOT_FOUND_PROBE, userAgent),
    );
    this.logger.log({ msg: 'serving the built frontend', staticDir });
  }
}
