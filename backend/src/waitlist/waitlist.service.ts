import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  isEventProduct,
  isPastEvent,
  type LiveAvailability,
  resolveEventDate,
  variantLineName,
  type WaitlistConfirmation,
  type WaitlistCounts,
  waitlistJoinRequestSchema,
  type WaitlistOfferView,
  waitlistTokenSchema,
} from '@awhh/machines';
import { isVariable, type CatalogProduct } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { apiError } from '../common/api-error.js';
import { parseBody } from '../common/validation.js';
import { HoldRepository } from '../holds/holds.port.js';
import { Holds } from '../holds/holds.js';
import { findStockUnit } from '../holds/stock-unit.js';
import { Store } from '../store/store.port.js';
import { type WaitlistEntry, type WaitlistOffer, WaitlistRepository } from './waitlist.port.js';
import { newWaitlistEntryId, newWaitlistToken } from './waitlist-links.js';
import { stockOfWaitedUnit } from './waitlist-pass.js';
import { waitlistMailJob } from './waitlist-mailer.js';
import { JobRepository } from '../jobs/jobs.port.js';

const NOT_OFFERED_MESSAGE = 'Für dieses Angebot gibt es keine Warteliste.';
const CONFIRM_NOT_FOUND_MESSAGE =
  'Diesen Bestätigungslink kennen wir nicht (mehr). Vielleicht hast du dich inzwischen abgemeldet oder das Event ist vorbei.';
const OFFER_NOT_FOUND_MESSAGE =
  'Dieses Angebot kennen wir nicht (mehr). Vielleicht hast du dich abgemeldet oder das Event ist vorbei.';
const placesFreeMessage = (lineName: string) =>
  `Für „${lineName}“ sind noch Plätze frei – du kannst sie direkt buchen. Auf die Warteliste kommst du, sobald alles vergeben ist.`;

/** A confirmation mail goes out again on a new join, but at most once an hour per entry. */
export const CONFIRM_MAIL_GAP_MS = 3_600_000;

/**
 * rules "Waiting list": joining (always 202, so nobody learns whether an address is on
 * the list), the double opt-in, the offer page's data, declining, unsubscribing, the
 * organizer's counts and the live availability the event page shows.
 */
@Injectable()
export class WaitlistService {
  private readonly logger = new Logger('Waitlist');

  constructor(
    @Inject(Store) private readonly store: Store,
    @Inject(WaitlistRepository) private readonly waitlist: WaitlistRepository,
    @Inject(HoldRepository) private readonly holdRepository: HoldRepository,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(Holds) private readonly holds: Holds,
  ) {
    // An offer's places are its hold: used while a checkout that claimed them holds them,
    // active again when that checkout is given up unpaid (rules "Waiting list").
    // A sale of the claimed places leaves the offer claimed.
    holds.onClaimChange(async (tx, { hold, change }) => {
      if (change === 'claimed') await tx.get(WaitlistRepository).markOfferClaimed(hold.id);
      if (change === 'givenBack') await tx.get(WaitlistRepository).markOfferActive(hold.id);
    });
  }

  /**
   * POST /api/waitlist. Only for a sold-out event or tier (stock − holds, checkouts' and
   * offers'): places on sale are for everyone, and an entry would otherwise hold them
   * through its offer.
   * That answer depends on the place alone, which the event page shows anyway. For the
   * address the answer is the same, new, known or duplicate: a new entry gets the
   * confirmation mail, a still unconfirmed one gets it again (at most once an hour), a
   * confirmed one nothing (one entry per address and stock unit).
   */
  async join(body: unknown): Promise<Record<string, never>> {
    const request = parseBody(waitlistJoinRequestSchema, body);
    const products = await this.catalog.products();
    const product = products.find((p) => p.id === request.productId);
    if (!product || !isEventProduct(product)) throw apiError(400, NOT_OFFERED_MESSAGE);
    const variation = isVariable(product)
      ? product.variants?.find((v) => v.id === request.variationId && v.purchasable)
      : null;
    if (variation === undefined || (!isVariable(product) && request.variationId !== undefined)) {
      throw apiError(400, NOT_OFFERED_MESSAGE);
    }
    const date = resolveEventDate(product)?.date ?? null;
    // A past event sells nothing any more; the answer stays the same.
    if (date && isPastEvent(date, new Date())) return {};
    const unit = findStockUnit(products, product.id, variation?.id ?? null);
    if (!unit) throw apiError(400, NOT_OFFERED_MESSAGE);
    const lineName = variation ? variantLineName(product.name, variation.attributes) : product.name;
    const now = Date.now();
    const slug =
      typeof product.slug === 'string' && product.slug.trim() ? product.slug.trim() : null;
    await this.store.write(async (tx) => {
      const held =
        unit.stock === null
          ? 0
          : ((await tx.get(HoldRepository).heldByKey([unit.productKey], now, unit.readAt)).get(
              unit.productKey,
            ) ?? 0);
      if (unit.stock === null || unit.stock - held > 0) {
        throw apiError(409, placesFreeMessage(lineName));
      }
      const { entry, added } = await tx.get(WaitlistRepository).add(
        {
          id: newWaitlistEntryId(),
          productId: product.id,
          variationId: variation?.id ?? null,
          productKey: unit.productKey,
          quantity: request.quantity,
          email: request.email.toLowerCase(),
          lineName,
          eventSlug: slug,
          startsAt: date ? date.getTime() : null,
          confirmToken: newWaitlistToken(),
          unsubscribeToken: newWaitlistToken(),
        },
        now,
      );
      if (added || entry.status === 'pending') {
        await tx
          .get(JobRepository)
          .enqueueAgain(waitlistMailJob.confirm(entry.id), now, CONFIRM_MAIL_GAP_MS);
      }
    });
    return {};
  }

  /** POST /api/waitlist/confirm/:token: the double opt-in; only now the entry is in the queue. */
  async confirm(token: string): Promise<WaitlistConfirmation> {
    const entry = this.validToken(token)
      ? await this.waitlist.findByConfirmToken(token)
      : undefined;
    if (!entry) throw apiError(404, CONFIRM_NOT_FOUND_MESSAGE);
    const now = Date.now();
    let confirmedAt = entry.confirmedAt;
    if (entry.status === 'pending' && (await this.confirmEntry(entry, now))) {
      confirmedAt = now;
      this.logger.log({ msg: 'waiting-list entry confirmed', entryId: entry.id });
    }
    const confirmed = {
      ...entry,
      confirmedAt,
      status: entry.status === 'offered' ? 'offered' : 'confirmed',
    } as const;
    return {
      lineName: entry.lineName,
      eventSlug: entry.eventSlug,
      quantity: entry.quantity,
      status: confirmed.status,
      ahead: confirmed.status === 'confirmed' ? await this.waitlist.ahead(confirmed) : 0,
    };
  }

  /** GET /api/waitlist/offers/:token: what the offer page shows. */
  async offer(token: string): Promise<WaitlistOfferView> {
    const offer = this.validToken(token) ? await this.waitlist.findOffer(token) : undefined;
    const entry = offer ? await this.waitlist.find(offer.entryId) : undefined;
    if (!offer || !entry) throw apiError(404, OFFER_NOT_FOUND_MESSAGE);
    const product = await this.catalog.productById(entry.productId).catch(() => undefined);
    const variation =
      entry.variationId === null
        ? null
        : product?.variants?.find((v) => v.id === entry.variationId);
    const price = variation ? variation.price : variation === null ? product?.price : undefined;
    return {
      lineName: entry.lineName,
      eventSlug: entry.eventSlug,
      quantity: offer.quantity,
      status: viewStatus(offer, Date.now()),
      expiresAt: new Date(offer.expiresAt).toISOString(),
      productId: entry.productId,
      variationId: entry.variationId,
      price: price ?? null,
      image: imageOf(product, variation ?? null),
      unsubscribeToken: entry.unsubscribeToken,
    };
  }

  /**
   * Confirms the entry and notes, in the same transaction, what is on sale at this moment:
   * that stays on sale, and only places that come free from here on are offered to it. Noted
   * later by a pass, a place freed in between would count as on sale and never reach the
   * entry.
   */
  private async confirmEntry(entry: WaitlistEntry, now: number): Promise<boolean> {
    const unit = stockOfWaitedUnit(await this.catalog.currentProducts(), entry);
    return this.store.write(async (tx) => {
      let publicFree: number | null = null;
      if (unit && unit.stock !== null) {
        const held =
          (await tx.get(HoldRepository).heldByKey([entry.productKey], now, unit.readAt)).get(
            entry.productKey,
          ) ?? 0;
        publicFree = Math.max(0, unit.stock - held);
      }
      return tx.get(WaitlistRepository).confirm(entry.id, now, publicFree);
    });
  }

  /** POST /api/waitlist/offers/:token/decline: the places go to the next in line. */
  async decline(token: string): Promise<WaitlistOfferView> {
    const offer = this.validToken(token) ? await this.waitlist.findOffer(token) : undefined;
    if (!offer) throw apiError(404, OFFER_NOT_FOUND_MESSAGE);
    const declined = await this.store.write(async (tx) => {
      if (!(await tx.get(WaitlistRepository).declineOffer(offer.id))) return false;
      await tx.get(HoldRepository).releaseHold(offer.holdId);
      // A place a returned ticket lent to the offer goes back with it.
      await tx.get(HoldRepository).releaseLent(offer.entryId);
      return true;
    });
    if (declined) this.logger.log({ msg: 'waiting-list offer declined', offerId: offer.id });
    return this.offer(token);
  }

  /** POST /api/waitlist/unsubscribe/:token: the entry, its offers with their holds, and its mails are deleted. */
  async unsubscribe(token: string): Promise<{ removed: boolean }> {
    const entry = this.validToken(token)
      ? await this.waitlist.findByUnsubscribeToken(token)
      : undefined;
    if (!entry) return { removed: false };
    await this.store.write((tx) => tx.get(WaitlistRepository).remove(entry.id));
    // An offer it held frees its places: the repository publishes that after the commit.
    this.logger.log({ msg: 'waiting-list entry removed on request', entryId: entry.id });
    return { removed: true };
  }

  /** GET /api/waitlist/counts: queue lengths per event and tier, no addresses. */
  async counts(): Promise<WaitlistCounts> {
    return { rows: await this.waitlist.counts(Date.now()) };
  }

  /**
   * GET /api/waitlist/availability/:productId: the event page's catalog stock knows nothing
   * of open checkouts and offers; this does (rules "Capacity": available = stock − active
   * holds), so a tier held by others shows as sold out, with its waiting list.
   */
  async availability(productId: number): Promise<LiveAvailability> {
    // docs/ledger.md "A sale counts once": after a sale the cached copy is invalidated, and a
    // copy a refresh brought in meanwhile may carry the sale in its stock while its hold
    // still counts. Read as the checkout does (fresh after an invalidation), so the last
    // place shows as free the moment it is; the stale copy only while the shop cannot answer.
    const products = await this.catalog.currentProducts().catch(() => this.catalog.products());
    const own = findStockUnit(products, productId, null);
    if (!own) throw apiError(404, NOT_OFFERED_MESSAGE);
    const variants = (own.product.variants ?? []).filter((v) => v.purchasable);
    const units = variants.map((v) => ({ id: v.id, ...findStockUnit(products, productId, v.id)! }));
    const keys = [own, ...units].filter((u) => u.stock !== null).map((u) => u.productKey);
    const held = await this.holdRepository.heldByKey([...new Set(keys)], Date.now(), own.readAt);
    const free = (u: { productKey: number; stock: number | null }) =>
      u.stock === null ? null : Math.max(0, u.stock - (held.get(u.productKey) ?? 0));
    return {
      productId,
      free: free(own),
      variants: units.map((u) => ({ id: u.id, free: free(u) })),
    };
  }

  private validToken(token: string): boolean {
    return waitlistTokenSchema.safeParse(token).success;
  }
}

function viewStatus(offer: WaitlistOffer, now: number): WaitlistOfferView['status'] {
  if (offer.status === 'claimed') return 'used';
  if (offer.status === 'declined') return 'declined';
  if (offer.status === 'expired' || offer.expiresAt <= now) return 'expired';
  return 'active';
}

function imageOf(
  product: CatalogProduct | undefined,
  variation: { image: { src: string } | null } | null,
): string | null {
  return variation?.image?.src ?? product?.images[0]?.src ?? null;
}
