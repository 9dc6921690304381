// rules "Waiting list": its pages and API, kept beside the feature rather than in
// config/paths.ts, which ships in the first-load chunk (its budget has no room left).

export const waitlistPaths = {
  confirm: (token: string) => `/waitlist/confirm/${encodeURIComponent(token)}`,
  offer: (token: string) => `/waitlist/offer/${encodeURIComponent(token)}`,
  unsubscribe: (token: string) => `/waitlist/unsubscribe/${encodeURIComponent(token)}`,
  /** The checkout that uses an offer's reserved places. */
  checkoutWithOffer: (token: string) => `/checkout?angebot=${encodeURIComponent(token)}`,
} as const;

export const waitlistApi = {
  join: '/api/waitlist',
  confirm: (token: string) => `/api/waitlist/confirm/${encodeURIComponent(token)}`,
  offer: (token: string) => `/api/waitlist/offers/${encodeURIComponent(token)}`,
  decline: (token: string) => `/api/waitlist/offers/${encodeURIComponent(token)}/decline`,
  unsubscribe: (token: string) => `/api/waitlist/unsubscribe/${encodeURIComponent(token)}`,
  counts: '/api/waitlist/counts',
  liveAvailability: (productId: number) => `/api/waitlist/availability/${productId}`,
} as const;
