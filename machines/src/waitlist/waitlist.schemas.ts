import { z } from 'zod';
import { emailSchema } from '../schemas/wire.schemas.js';

// rules "Waiting list": what crosses the wire between the waiting-list pages and the API.

/** A visitor asks for at most this many places at once. */
export const WAITLIST_MAX_QUANTITY = 4;

/** Random, base64url: the secret part of every waiting-list link. */
export const waitlistTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

/** `POST /api/waitlist`: always answered 202 `{}`, whoever the address belongs to. */
export const waitlistJoinRequestSchema = z.object({
  productId: z.number().int().positive(),
  variationId: z.number().int().positive().optional(),
  quantity: z
    .number()
    .int()
    .min(1, 'Bitte wähle mindestens 1 Platz.')
    .max(WAITLIST_MAX_QUANTITY, `Höchstens ${WAITLIST_MAX_QUANTITY} Plätze pro Eintrag.`),
  email: emailSchema,
  consent: z.literal(true, { error: 'Bitte stimme der Datenschutzerklärung zu.' }),
});
export type WaitlistJoinRequest = z.input<typeof waitlistJoinRequestSchema>;

/** What a waiting-list page shows of the entry: no address. */
const waitlistItemFields = {
  /** "Sommer-Afterwork – VIP". */
  lineName: z.string(),
  eventSlug: z.string().nullable(),
  quantity: z.number().int(),
};

/** `POST /api/waitlist/confirm/:token`. */
export const waitlistConfirmationSchema = z.object({
  ...waitlistItemFields,
  /** `confirmed` now or before; `offered`: an offer was already made. */
  status: z.enum(['confirmed', 'offered']),
  /** Confirmed entries ahead in the queue. */
  ahead: z.number().int(),
});
export type WaitlistConfirmation = z.infer<typeof waitlistConfirmationSchema>;

/** `GET /api/waitlist/offers/:token`: the offer landing page. */
export const waitlistOfferViewSchema = z.object({
  ...waitlistItemFields,
  /** `active`: the places are held for the visitor until `expiresAt`; `used`: a checkout took them. */
  status: z.enum(['active', 'used', 'expired', 'declined']),
  expiresAt: z.string(),
  productId: z.number().int(),
  variationId: z.number().int().nullable(),
  /** Unit price in euros as the cart shows it; null when the catalog no longer sells it. */
  price: z.number().nullable(),
  image: z.string().nullable(),
  unsubscribeToken: z.string(),
});
export type WaitlistOfferView = z.infer<typeof waitlistOfferViewSchema>;

/** `GET /api/waitlist/counts`: the organizer's view on /webhook-test, counts only. */
export const waitlistCountsSchema = z.object({
  rows: z.array(
    z.object({
      productId: z.number().int(),
      variationId: z.number().int().nullable(),
      lineName: z.string(),
      /** Confirmed entries still waiting. */
      waiting: z.number().int(),
      /** Offers currently holding places. */
      offered: z.number().int(),
    }),
  ),
});
export type WaitlistCounts = z.infer<typeof waitlistCountsSchema>;

/**
 * `GET /api/waitlist/availability/:productId`: places nobody holds (stock − reservations −
 * offers), per stock unit of the product and its tiers; null = unlimited.
 */
export const liveAvailabilitySchema = z.object({
  productId: z.number().int(),
  free: z.number().int().nullable(),
  variants: z.array(z.object({ id: z.number().int(), free: z.number().int().nullable() })),
});
export type LiveAvailability = z.infer<typeof liveAvailabilitySchema>;
