import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Logger,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import {
  couponValidationRequestSchema,
  retentionPeriods,
  toCents,
  type CouponValidationResponse,
} from '@awhh/machines';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../common/api-error.js';
import { RateLimit } from '../common/rate-limit.js';
import { parseBody } from '../common/validation.js';
import { AppConfig } from '../config/config.js';
import { shopReadAt } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import {
  couponLinesOf,
  evaluateCoupon,
  priceCouponLines,
  productNamesIn,
} from '../catalog/coupon-evaluation.js';
import { HoldRepository } from '../holds/holds.port.js';
import { FAQ_ENTRIES } from './faq.data.js';
import { type CachedBody, cachedBody, sendCached } from './http-cache.js';
import { ProductsService } from './products.service.js';

export const EVENT_NOT_FOUND_MESSAGE = 'Dieses Event gibt es nicht (mehr).';
export const POST_NOT_FOUND_MESSAGE = 'Diesen Beitrag gibt es nicht (mehr).';
export const MERCH_NOT_FOUND_MESSAGE = 'Diesen Artikel gibt es nicht (mehr).';

/** A brake on guessing codes; generous enough for a whole office behind one IP. */
export const COUPON_RATE_LIMIT = {
  name: 'coupon-validate',
  limit: 60,
  windowMs: 60_000,
  message: 'Zu viele Gutschein-Versuche. Bitte warte eine Minute und versuche es dann erneut.',
};

/** Browsers and nginx may reuse catalog answers this long; never longer than our own TTL. */
function maxAge(config: AppConfig): number {
  return Math.min(config.catalogTtlSeconds, 30);
}

/** rules §7: the product feed the site reads for the next-event link. */
@Controller('woocommerce')
export class FeedController {
  constructor(
    private readonly products: ProductsService,
    private readonly config: AppConfig,
  ) {}

  @Get('products')
  async feed(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return sendCached(req, reply, await this.products.feed(), maxAge(this.config));
  }
}

@Controller('events')
export class EventsController {
  constructor(
    private readonly products: ProductsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return sendCached(req, reply, await this.products.events(new Date()), maxAge(this.config));
  }

  @Get(':slug')
  async detail(
    @Param('slug') slug: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const event = await this.products.event(slug, new Date());
    if (!event) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    return sendCached(req, reply, event, maxAge(this.config));
  }
}

/** rules "Everything the shop sells": merch is listed on / and has its own page. */
@Controller('merch')
export class MerchController {
  constructor(
    private readonly products: ProductsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return sendCached(req, reply, await this.products.merch(), maxAge(this.config));
  }

  @Get(':slug')
  async detail(
    @Param('slug') slug: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const item = await this.products.merchItem(slug);
    if (!item) throw apiError(404, MERCH_NOT_FOUND_MESSAGE);
    return sendCached(req, reply, item, maxAge(this.config));
  }
}

@Controller('blog')
export class BlogController {
  constructor(
    private readonly products: ProductsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return sendCached(req, reply, await this.products.posts(), maxAge(this.config));
  }

  @Get(':slug')
  async detail(
    @Param('slug') slug: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const post = await this.products.post(slug);
    if (!post) throw apiError(404, POST_NOT_FOUND_MESSAGE);
    return sendCached(req, reply, post, maxAge(this.config));
  }
}

/**
 * rules "Coupons": validated by the server with WooCommerce semantics, counting the uses open
 * checkouts hold (docs/decisions/0013-coupon-uses-are-held.md), so a visitor learns in the
 * cart that the last use is taken; the checkout decides again under the coupon's lock.
 */
@Controller('coupons')
export class CouponsController {
  private readonly logger = new Logger('Coupons');
  /** The store could not be read at the last look (logged once per outage). */
  private storeAway = false;

  constructor(
    private readonly catalog: CatalogService,
    @Inject(HoldRepository) private readonly holds: HoldRepository,
  ) {}

  @Post('validate')
  @RateLimit(COUPON_RATE_LIMIT)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async validate(@Body() body: unknown): Promise<CouponValidationResponse> {
    const request = parseBody(couponValidationRequestSchema, body);
    const coupon = await this.catalog.findCoupon(request.code);
    const subtotal = request.subtotal === undefined ? undefined : toCents(request.subtotal);
    // rules "Coupons": the cart's lines priced from the catalog, never from the request.
    const catalog = request.lines?.length ? await this.catalog.currentProducts() : [];
    const lines = couponLinesOf(catalog, priceCouponLines(catalog, request.lines ?? []));
    const result = evaluateCoupon(coupon, lines, {
      now: new Date(),
      ...(subtotal !== undefined ? { subtotal } : {}),
      productNames: productNamesIn(catalog),
      heldUses: coupon ? await this.heldUses(coupon.code, shopReadAt(coupon)) : 0,
    });
    if (!result.ok) throw apiError(result.statusCode, result.message);
    return {
      ...result.coupon,
      ...(lines.length > 0 ? { discountCents: result.discountCents } : {}),
      ...(result.needsEmail ? { needsEmail: true } : {}),
    };
  }

  /**
   * The uses open checkouts hold, read without the lock: the cart's answer is a hint. Should
   * the store not answer (away, or a new one the checkout side has not set up yet), the cart
   * hears what the catalog says; the checkout, which cannot go on without the store, decides.
   */
  private async heldUses(code: string, readAt: number): Promise<number> {
    try {
      const held = await this.holds.couponUsesHeld(code, null, Date.now(), readAt);
      this.storeAway = false;
      return held.all;
    } catch (err) {
      if (!this.storeAway) {
        this.logger.warn({ msg: 'held coupon uses not readable', error: String(err) });
      }
      this.storeAway = true;
      return 0;
    }
  }
}

/** The FAQ page's content (also its FAQPage JSON-LD in the site module). */
@Controller('faq')
export class FaqController {
  private readonly body = cachedBody(FAQ_ENTRIES);

  constructor(private readonly config: AppConfig) {}

  @Get()
  list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return sendCached(req, reply, this.body, maxAge(this.config));
  }
}

/** The retention periods the privacy page states, as the erasure job applies them (docs/privacy.md). */
@Controller('privacy')
export class PrivacyController {
  private readonly body: CachedBody;

  constructor(private readonly config: AppConfig) {
    this.body = cachedBody(retentionPeriods(config.personalDataDaysAfterEvent));
  }

  @Get()
  periods(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return sendCached(req, reply, this.body, maxAge(this.config));
  }
}
