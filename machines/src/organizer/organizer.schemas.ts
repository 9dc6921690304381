import { z } from 'zod';

// rules "The organizer": what crosses the wire between /veranstalter and the API.

/** Longest WordPress user name (`user_login` is 60 characters). */
export const ORGANIZER_USERNAME_MAX = 60;
/** An application password is 24 characters, 29 with WordPress's spaces; anything far longer is wrong. */
const SECRET_MAX = 200;

/**
 * `POST /api/organizer/session` on a site that runs on WooCommerce: a WordPress account, its
 * user name and one of its application passwords (never its login password).
 */
export const organizerAccountSignInSchema = z.object({
  username: z
    .string({ error: 'Bitte gib deinen WordPress-Benutzernamen ein.' })
    .trim()
    .min(1, 'Bitte gib deinen WordPress-Benutzernamen ein.')
    .max(ORGANIZER_USERNAME_MAX, 'Dieser Benutzername ist zu lang.'),
  applicationPassword: z
    .string({ error: 'Bitte gib ein Anwendungspasswort ein.' })
    .trim()
    .min(1, 'Bitte gib ein Anwendungspasswort ein.')
    .max(SECRET_MAX, 'Dieses Anwendungspasswort ist zu lang.'),
});
export type OrganizerAccountSignIn = z.input<typeof organizerAccountSignInSchema>;

/** `POST /api/organizer/session` on the demo shop: the organizer code (ORGANIZER_CODE). */
export const organizerCodeSignInSchema = z.object({
  code: z
    .string({ error: 'Bitte gib den Veranstaltercode ein.' })
    .trim()
    .min(1, 'Bitte gib den Veranstaltercode ein.')
    .max(SECRET_MAX, 'Dieser Code ist zu lang.'),
});
export type OrganizerCodeSignIn = z.input<typeof organizerCodeSignInSchema>;

/** How the organizer signs in here: a WordPress account of the shop, or the code (demo). */
export const organizerSignInMethodSchema = z.enum(['wordpress', 'code']);
export type OrganizerSignInMethod = z.infer<typeof organizerSignInMethodSchema>;

/** `GET /api/organizer/session`: whether this browser is signed in, and how one signs in. */
export const organizerSessionSchema = z.object({
  signedIn: z.boolean(),
  method: organizerSignInMethodSchema,
  /** The WordPress account's display name while signed in with one; null otherwise. */
  name: z.string().nullable(),
});
export type OrganizerSession = z.infer<typeof organizerSessionSchema>;

/** One point of a cumulative series: by `at` (ISO 8601), `count` in all. */
export const organizerPointSchema = z.object({ at: z.string(), count: z.number().int() });
export type OrganizerPoint = z.infer<typeof organizerPointSchema>;

export const organizerTierSchema = z.object({
  /** null: the event is a simple product, sold without tiers. */
  variationId: z.number().int().nullable(),
  name: z.string(),
  /** Valid tickets of the tier. */
  sold: z.number().int(),
  /**
   * Places of the tier's stock unit (sold ones included); null: WooCommerce does not
   * manage its stock (unlimited) or the catalog no longer lists it. Tiers that share
   * their event's stock show the shared places.
   */
  capacity: z.number().int().nullable(),
  /** Places in checkouts still waiting for their payment. */
  openCheckouts: z.number().int(),
});
export type OrganizerTier = z.infer<typeof organizerTierSchema>;

/** rules "The organizer": one event on the dashboard. */
export const organizerEventSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** ISO 8601, or null when the catalog has no date. */
  startsAt: z.string().nullable(),
  venue: z.string().nullable(),
  tiers: z.array(organizerTierSchema),
  sold: z.number().int(),
  /** The places of every stock unit of the event; null when one of them is unlimited. */
  capacity: z.number().int().nullable(),
  /** What buyers paid for the valid tickets, in euros (rules "The organizer"). */
  revenue: z.number(),
  openCheckouts: z.number().int(),
  /** Valid tickets checked in at the door. */
  checkedIn: z.number().int(),
  /** Confirmed waiting-list entries without an offer. */
  waiting: z.number().int(),
  /** Waiting-list entries holding an offer now. */
  offered: z.number().int(),
  /** After the evening: valid tickets never checked in; null before it ended. */
  noShows: z.number().int().nullable(),
  /** Tickets sold over time and check-ins over the evening, each cumulative. */
  sales: z.array(organizerPointSchema),
  checkIns: z.array(organizerPointSchema),
  /** When the server read these figures (ISO 8601). */
  updatedAt: z.string(),
});
export type OrganizerEvent = z.infer<typeof organizerEventSchema>;

/** `GET /api/organizer/events`: today's and upcoming events soonest first, then past ones. */
export const organizerEventsSchema = z.object({ events: z.array(organizerEventSchema) });
export type OrganizerEvents = z.infer<typeof organizerEventsSchema>;

/**
 * rules "The organizer", guest list: a ticket's state as the list shows it. `valid` (gültig,
 * not checked in yet), `checkedIn` (eingecheckt: valid, with its first check-in), `revoked`
 * (storniert: refunded, disputed or cancelled in the shop; a check-in before stays listed).
 */
export const attendeeStatusSchema = z.enum(['valid', 'checkedIn', 'revoked']);
export type AttendeeStatus = z.infer<typeof attendeeStatusSchema>;

/** The device name the organizer's own check-ins carry, as the door phones show it. */
export const ORGANIZER_DEVICE = 'Veranstalter';

/** rules "The organizer": one ticket of the guest list. */
export const attendeeSchema = z.object({
  ticketId: z.string(),
  /** The ticket's holder; null when the shop had no name. */
  name: z.string().nullable(),
  /** The holder's company; null when none was given. */
  company: z.string().nullable(),
  /** The buyer's address (the order's), null when unknown or erased. */
  email: z.string().nullable(),
  tier: z.string().nullable(),
  status: attendeeStatusSchema,
  /** The first check-in (ISO 8601) and its device ("Tür 1", "Veranstalter"); null before it. */
  checkedInAt: z.string().nullable(),
  device: z.string().nullable(),
  /** The short code as printed (`K7QM-3XPA`); null for a revoked ticket or none stored. */
  code: z.string().nullable(),
  /** The order's number as the buyer was told it; null while the shop has not numbered it. */
  orderNumber: z.string().nullable(),
  /** The site's order (cancel the whole order); null for an order made in the shop. */
  orderId: z.string().nullable(),
  seat: z.number().int(),
  seats: z.number().int(),
  /** A guest-list seat of an order of 0 € made in the shop. */
  guestList: z.boolean(),
});
export type Attendee = z.infer<typeof attendeeSchema>;

/** Most tickets one answer of the guest list carries (the page asks for the next ones). */
export const ATTENDEES_MAX_LIMIT = 500;
export const ATTENDEES_DEFAULT_LIMIT = 100;

/** `GET /api/organizer/events/:id/attendees` query: `q` searches, `offset`/`limit` page. */
export const attendeesQuerySchema = z.object({
  q: z
    .string()
    .max(200, 'Der Suchbegriff ist zu lang.')
    .optional()
    .transform((q) => q?.trim() ?? ''),
  offset: z.coerce
    .number({ error: 'offset muss eine Zahl sein.' })
    .int('offset muss eine ganze Zahl sein.')
    .min(0, 'offset darf nicht negativ sein.')
    .max(1_000_000, 'offset ist zu groß.')
    .default(0),
  limit: z.coerce
    .number({ error: 'limit muss eine Zahl sein.' })
    .int('limit muss eine ganze Zahl sein.')
    .min(1, 'limit muss mindestens 1 sein.')
    .max(ATTENDEES_MAX_LIMIT, `Höchstens ${ATTENDEES_MAX_LIMIT} Tickets auf einmal.`)
    .default(ATTENDEES_DEFAULT_LIMIT),
});
export type AttendeesQuery = z.input<typeof attendeesQuerySchema>;

/**
 * `GET /api/organizer/events/:id/attendees`: the event's tickets (in order, line and seat
 * order) or, with `q`, those it finds; `total` how many there are in all.
 */
export const attendeesSchema = z.object({
  attendees: z.array(attendeeSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type Attendees = z.infer<typeof attendeesSchema>;

/** `POST …/attendees/:ticketId/check-in`, `DELETE` the same, `POST …/resend`: the ticket as it is now. */
export const attendeeAnswerSchema = z.object({ attendee: attendeeSchema });
export type AttendeeAnswer = z.infer<typeof attendeeAnswerSchema>;

/**
 * `POST /api/organizer/events/:id/attendees/:ticketId/cancel`: `scope` `ticket` refunds this
 * ticket's price (a partial refund of its order), `order` the rest of its whole order.
 */
export const attendeeCancelSchema = z.object({
  scope: z.enum(['ticket', 'order'], { error: 'scope muss "ticket" oder "order" sein.' }),
});
export type AttendeeCancel = z.input<typeof attendeeCancelSchema>;

/** What a cancellation refunded (euros) and which tickets it revoked. */
export const attendeeCancelAnswerSchema = z.object({
  refunded: z.number(),
  revoked: z.array(z.string()),
});
export type AttendeeCancelAnswer = z.infer<typeof attendeeCancelAnswerSchema>;

/**
 * rules "Hand-off refused": the paid orders WooCommerce refused, on /veranstalter with its
 * message and when, newest first; `orderId` is what "Erneut übergeben" sends back.
 */
export const organizerHandoffsSchema = z.object({
  orders: z.array(
    z.object({
      orderId: z.string(),
      reason: z.string(),
      at: z.string(),
    }),
  ),
});
export type OrganizerHandoffs = z.infer<typeof organizerHandoffsSchema>;

/**
 * docs/ledger.md "Told to the organizer": what the organizer must look at in the shop
 * (places not back in stock, a refunded guest already let in), open ones newest first,
 * worded in German by the server; `id` is what "Erledigt" sends back.
 */
export const organizerNoticesSchema = z.object({
  notices: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['placesNotRestocked', 'checkedInRevoked']),
      title: z.string(),
      paragraphs: z.array(z.string()),
      at: z.string(),
    }),
  ),
});
export type OrganizerNotices = z.infer<typeof organizerNoticesSchema>;

/**
 * rules "The organizer": the devices signed in at /einlass with the current door code,
 * most recently heard from first; `id` is what "Abmelden" sends back.
 */
export const organizerDoorDevicesSchema = z.object({
  devices: z.array(
    z.object({
      id: z.string(),
      device: z.string(),
      createdAt: z.string(),
      lastSeenAt: z.string(),
    }),
  ),
});
export type OrganizerDoorDevices = z.infer<typeof organizerDoorDevicesSchema>;
