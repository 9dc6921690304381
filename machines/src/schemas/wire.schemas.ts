import { z } from 'zod';
import { DEFAULT_CURRENCY, MAX_LINE_QUANTITY } from '../pricing/pricing.js';
import { EMAIL_MAX_LENGTH, INVALID_EMAIL_MESSAGE } from './email.js';

/** An address a visitor typed (schemas/email.ts: the same rule the forms check). */
export const emailSchema = z.string().trim().email(INVALID_EMAIL_MESSAGE).max(EMAIL_MAX_LENGTH);

/** Everything that crosses the wire between browser and API, validated on both sides. */

const money = z.number().finite().nonnegative();
const slug = z.string().trim().min(1).max(200);

export const cartItemSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(300),
  price: z.number(),
  quantity: z.number().int().min(1),
  image: z.string().max(2000).optional(),
  currency: z.string().max(10).optional(),
  productId: z.number().int().positive().optional(),
  variationId: z.number().int().positive().optional(),
  /** The product's `maxPerOrder` when it was added: units of it (all variants) per order. */
  maxPerOrder: z.number().int().min(1).optional(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

export const couponSchema = z.object({
  code: z.string().max(100).optional(),
  discountType: z.string(),
  discount: z.number(),
  /**
   * The server's discount in cents on the cart's lines named by `linesKey` (rules
   * "Coupons"): the cart shows it rather than computing its own. The checkout ignores both;
   * the server prices the coupon again.
   */
  discountCents: z.number().int().nonnegative().optional(),
  linesKey: z.string().max(2000).optional(),
  /** The coupon is bound to e-mail addresses: the checkout asks for one. */
  needsEmail: z.boolean().optional(),
});
export type Coupon = z.infer<typeof couponSchema>;

/** WooCommerce meta values are messy: strings, numbers, arrays or objects. */
export const metaDataSchema = z.object({
  id: z.number().optional(),
  key: z.string(),
  value: z.unknown(),
});
export type MetaData = z.infer<typeof metaDataSchema>;

export const productImageSchema = z.object({
  src: z.string(),
  alt: z.string().optional(),
});

/** The product feed of rules §7 plus the fields the site shows. */
export const productSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.unknown(),
  date_created: z.string().nullable().optional(),
  date_modified: z.string().nullable().optional(),
  meta_data: z.array(metaDataSchema).default([]),
  price: money.optional(),
  regular_price: money.optional(),
  sale_price: money.nullable().optional(),
  on_sale: z.boolean().optional(),
  images: z.array(productImageSchema).default([]),
  stock_status: z.enum(['instock', 'outofstock', 'onbackorder']).optional(),
  stock_quantity: z.number().int().nullable().optional(),
  short_description: z.string().optional(),
  categories: z.array(z.object({ slug: z.string(), name: z.string() })).default([]),
  kind: z.enum(['event', 'product']).optional(),
  /** WooCommerce's product type; a "variable" product is sold only as its variations. */
  type: z.string().optional(),
  /** Ids of a variable product's variations, as WooCommerce lists them. */
  variations: z.array(z.number().int()).optional(),
  /** WooCommerce's "Limit purchases to 1 item per order". */
  sold_individually: z.boolean().optional(),
});
export type Product = z.infer<typeof productSchema>;
export const productFeedSchema = z.array(productSchema);

export const availabilitySchema = z.enum(['available', 'few_left', 'sold_out']);
export type Availability = z.infer<typeof availabilitySchema>;

export const variantAttributeSchema = z.object({ name: z.string(), option: z.string() });
export type VariantAttribute = z.infer<typeof variantAttributeSchema>;

/**
 * rules "Everything the shop sells": one variation of a variable product (a ticket tier,
 * a size). `name` is its option values ("VIP", "L"); prices in euros; `regularPrice`
 * above `price` means it is on sale.
 */
export const variantSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  attributes: z.array(variantAttributeSchema),
  price: money,
  regularPrice: money,
  availability: availabilitySchema,
  available: z.number().int().nullable(),
});
export type Variant = z.infer<typeof variantSchema>;

/** What events and merch share: price (the lowest variant's when there are variants). */
const saleableFields = {
  id: z.number().int(),
  slug,
  name: z.string(),
  image: productImageSchema.nullable(),
  price: money,
  regularPrice: money,
  currency: z.string(),
  availability: availabilitySchema,
  available: z.number().int().nullable(),
  shortDescription: z.string(),
  /** Empty for simple products; otherwise the only things that can be bought. */
  variants: z.array(variantSchema),
  /** Most units of this product (all its variants together) one order may hold. */
  maxPerOrder: z.number().int().min(1),
};

export const eventSummarySchema = z.object({
  ...saleableFields,
  startsAt: z.string().nullable(),
  venue: z.string().nullable(),
  past: z.boolean(),
});
export type EventSummary = z.infer<typeof eventSummarySchema>;

export const eventDetailSchema = eventSummarySchema.extend({
  descriptionHtml: z.string(),
});
export type EventDetail = z.infer<typeof eventDetailSchema>;

export const merchSummarySchema = z.object(saleableFields);
export type MerchSummary = z.infer<typeof merchSummarySchema>;

export const merchDetailSchema = merchSummarySchema.extend({ descriptionHtml: z.string() });
export type MerchDetail = z.infer<typeof merchDetailSchema>;

export const blogPostSummarySchema = z.object({
  slug,
  title: z.string(),
  excerpt: z.string(),
  publishedAt: z.string(),
  image: productImageSchema.nullable(),
  author: z.string().nullable(),
});
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;

export const blogPostSchema = blogPostSummarySchema.extend({ contentHtml: z.string() });
export type BlogPost = z.infer<typeof blogPostSchema>;

export const faqEntrySchema = z.object({
  question: z.string(),
  answer: z.string(),
  /** A page of the site the answer points to ("Zum Kontaktformular" → /contact). */
  link: z.object({ text: z.string(), href: z.string().startsWith('/') }).optional(),
});
export type FaqEntry = z.infer<typeof faqEntrySchema>;

/** rules §3 checkout line item plus productId/variationId (to re-price it). amount = unit price in euros. */
export const checkoutLineItemSchema = z.object({
  name: z.string().min(1).max(300),
  amount: money,
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
  currency: z.string().min(3).max(3).default(DEFAULT_CURRENCY),
  images: z.array(z.string().max(2000)).max(8).default([]),
  productId: z.number().int().positive(),
  variationId: z.number().int().positive().optional(),
});
export type CheckoutLineItem = z.infer<typeof checkoutLineItemSchema>;

export const checkoutRequestSchema = z.object({
  line_items: z.array(checkoutLineItemSchema).min(1).max(50),
  success_url: z.string().url().max(2000),
  cancel_url: z.string().url().max(2000),
  payment_method: z.string().min(1).max(40).default('card'),
  coupon: couponSchema.nullable().default(null),
  /** rules "Coupons": the buyer's address, asked for at /checkout when the coupon needs one. */
  email: emailSchema.optional(),
  /** rules "Waiting list": the offer whose reserved places this checkout uses. */
  waitlist_offer: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .optional(),
});
export type CheckoutRequest = z.input<typeof checkoutRequestSchema>;
export type ParsedCheckoutRequest = z.output<typeof checkoutRequestSchema>;

export const checkoutResponseSchema = z.object({
  id: z.string(),
  url: z.string().optional(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** A cart line as the coupon check needs it (rules "Coupons"); the server prices it. */
export const couponValidationLineSchema = z.object({
  productId: z.number().int().positive(),
  variationId: z.number().int().positive().optional(),
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
});
export type CouponValidationLine = z.infer<typeof couponValidationLineSchema>;

export const couponValidationRequestSchema = z.object({
  code: z.string().trim().min(1).max(100),
  subtotal: money.optional(),
  /** The cart's lines: restrictions by product, category or spend are checked on them. */
  lines: z.array(couponValidationLineSchema).max(50).optional(),
});
export type CouponValidationRequest = z.infer<typeof couponValidationRequestSchema>;

export const couponValidationResponseSchema = z.object({
  code: z.string(),
  discountType: z.string(),
  discount: z.number(),
  /** The discount in cents on the lines sent, as WooCommerce spreads it. */
  discountCents: z.number().int().nonnegative().optional(),
  /** The coupon is bound to e-mail addresses: checked at the checkout. */
  needsEmail: z.boolean().optional(),
});
export type CouponValidationResponse = z.infer<typeof couponValidationResponseSchema>;

/** A line the server priced differently or cannot deliver in the requested amount (409). */
export const lineProblemSchema = z.object({
  productId: z.number().int(),
  variationId: z.number().int().optional(),
  name: z.string(),
  price: money,
  available: z.number().int().nullable(),
});
export type LineProblem = z.infer<typeof lineProblemSchema>;

export const apiErrorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  lines: z.array(lineProblemSchema).optional(),
  /** rules "Coupons": the checkout refused the coupon for the buyer's address (none, or another). */
  needsEmail: z.boolean().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const sessionStatusSchema = z.enum(['open', 'processing', 'paid', 'expired', 'canceled']);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

/** rules "Tickets and the door": a ticket is valid until its order is refunded or canceled. */
export const ticketStatusSchema = z.enum(['valid', 'revoked']);
export type TicketStatus = z.infer<typeof ticketStatusSchema>;

/**
 * One seat of a paid order: `GET /api/tickets/:token` and the ticket page. The event's
 * name, date, venue and tier are kept as they were when the ticket was issued.
 */
export const ticketSchema = z.object({
  id: z.string(),
  /** The signed token (Ed25519 JWS, compact): the QR code's content and the page's URL. */
  token: z.string(),
  status: ticketStatusSchema,
  eventId: z.number().int(),
  eventName: z.string(),
  eventSlug: z.string().nullable(),
  startsAt: z.string().nullable(),
  venue: z.string().nullable(),
  /** The tier's option values ("VIP"), null for an event without tiers. */
  tier: z.string().nullable(),
  /** 1-based within the order's line for this event and tier ("Ticket 2 von 3"). */
  seat: z.number().int().min(1),
  seats: z.number().int().min(1),
  holder: z.string().nullable(),
  /** A guest-list seat (rules "Orders made in the shop": an order of 0 € made in the shop). */
  guestList: z.boolean().optional(),
  orderNumber: z.string().nullable(),
  /**
   * The short ticket code as stored (`K7QM3XPA`; shown as `K7QM-3XPA`, `formatTicketCode`),
   * typed at the door when the QR code will not scan; null for a revoked ticket.
   */
  code: z.string().nullable(),
  /** The holder's company (rules "Named tickets"); absent from older servers. */
  company: z.string().nullable().optional(),
  /**
   * Until when the holder may pass the ticket on (ISO 8601, `TICKET_TRANSFER_UNTIL_HOURS`
   * before the start); null when it cannot be passed on (anymore).
   */
  transferUntil: z.string().nullable().optional(),
  /** Whether the holder may pass it on now (valid, not checked in, before the deadline). */
  transferable: z.boolean().optional(),
  /** On the success page: the ticket went to someone else; its token is the buyer's old one. */
  passedOn: z.boolean().optional(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/** What the success page lists once the order is paid. */
export const ticketLinkSchema = ticketSchema.pick({
  token: true,
  status: true,
  eventName: true,
  tier: true,
  seat: true,
  seats: true,
  holder: true,
  company: true,
  passedOn: true,
});
export type TicketLink = z.infer<typeof ticketLinkSchema>;

/** rules "Named tickets": a name as a ticket carries it; no control characters. */
const holderName = z
  .string({ error: 'Bitte gib einen Namen ein.' })
  .trim()
  .min(2, 'Bitte gib einen Namen mit mindestens 2 Zeichen ein.')
  .max(80, 'Der Name ist zu lang (höchstens 80 Zeichen).')
  .refine((v) => !/[\p{Cc}\p{Cf}]/u.test(v), 'Der Name enthält ungültige Zeichen.');
const holderCompany = z
  .string()
  .trim()
  .max(80, 'Der Firmenname ist zu lang (höchstens 80 Zeichen).')
  .refine((v) => !/[\p{Cc}\p{Cf}]/u.test(v), 'Der Firmenname enthält ungültige Zeichen.')
  .nullish()
  .transform((v) => (v ? v : null));

/** `POST /api/tickets/:token/holder` and the organizer's `PUT …/tickets/:id/holder`. */
export const ticketHolderRequestSchema = z.object({ name: holderName, company: holderCompany });
export type TicketHolderRequest = z.input<typeof ticketHolderRequestSchema>;

/** `POST /api/tickets/:token/transfer` ("Ticket weitergeben"): the new holder. */
export const ticketTransferRequestSchema = z.object({
  name: holderName,
  company: holderCompany,
  email: emailSchema,
});
export type TicketTransferRequest = z.input<typeof ticketTransferRequestSchema>;

/** The answer to a transfer: to whom it went (the new link goes to them only). */
export const ticketTransferResultSchema = z.object({ holder: z.string(), email: z.string() });
export type TicketTransferResult = z.infer<typeof ticketTransferResultSchema>;

export const ticketResendRequestSchema = z.object({
  email: emailSchema,
});

/** The embedded mailbox of `/mail-test` (rules "E-mail"): a mail as it would have been sent. */
export const mailAttachmentInfoSchema = z.object({
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
export const mailSummarySchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  attachments: z.array(mailAttachmentInfoSchema),
});
export type MailSummary = z.infer<typeof mailSummarySchema>;
export const mailMessageSchema = mailSummarySchema.extend({
  from: z.string(),
  html: z.string(),
  text: z.string(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;
/**
 * `GET /api/mail-test` (only while the mailbox is open): the embedded door code for
 * `/einlass` (rules "Tickets and the door"); null when CHECKIN_CODE is set.
 */
export const mailTestInfoSchema = z.object({ checkinCode: z.string().nullable() });
export type MailTestInfo = z.infer<typeof mailTestInfoSchema>;

export const orderSummarySchema = z.object({
  id: z.string(),
  status: sessionStatusSchema,
  orderNumber: z.string().nullable(),
  lines: z.array(
    z.object({ name: z.string(), quantity: z.number().int(), unitAmount: z.number().int() }),
  ),
  subtotal: z.number().int(),
  discount: z.number().int(),
  total: z.number().int(),
  currency: z.string(),
  couponCode: z.string().nullable(),
  email: z.string().nullable(),
  /** rules "Tickets and the door": the order's tickets once paid; empty before. */
  tickets: z.array(ticketLinkSchema).default([]),
  /**
   * True 24 hours after the payment: the summary no longer carries the tickets and the
   * e-mail address; the ticket mail and the resend form serve them.
   */
  detailsWithheld: z.boolean().default(false),
  /** Set while payments and mail both run on their embedded defaults: the test mailbox. */
  mailboxUrl: z.string().nullable().default(null),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const contactRequestSchema = z.object({
  name: z.string().trim().min(2, 'Bitte gib deinen Namen ein.').max(120),
  email: emailSchema,
  message: z
    .string()
    .trim()
    .min(10, 'Bitte schreib uns mindestens 10 Zeichen.')
    .max(5000, 'Die Nachricht ist zu lang (höchstens 5000 Zeichen).'),
  consent: z.literal(true, { error: 'Bitte stimme der Datenschutzerklärung zu.' }),
  website: z.string().max(0).optional(),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;
