// Every route of rules §2 in one place; components link through these, never through literals.
export const paths = {
  home: '/',
  faq: '/faq',
  cart: '/cart',
  next: '/next',
  contact: '/contact',
  success: '/success',
  checkout: '/checkout',
  impressum: '/impressum',
  blog: '/blog',
  blogPost: (slug: string) => `/blog/${encodeURIComponent(slug)}`,
  couponTest: '/coupon-test',
  datenschutz: '/datenschutz',
  webhookTest: '/webhook-test',
  event: (slug: string) => `/events/${encodeURIComponent(slug)}`,
  // rules "Everything the shop sells": every product that is not an event has a page.
  merch: (slug: string) => `/merch/${encodeURIComponent(slug)}`,
  applePayTest: '/apple-pay-test',
  // rules "Tickets and the door": the signed token is the page's address.
  ticket: (token: string) => `/tickets/${encodeURIComponent(token)}`,
  mailTest: '/mail-test',
} as const;

// The public catalog's endpoints: the loaders' data source and the header's next-event link
// need them on every page. The other endpoints live beside the feature that calls them
// (e.g. features/tickets/api.ts), in the lazily loaded chunks of their pages.
export const api = {
  products: '/api/woocommerce/products',
  events: '/api/events',
  event: (slug: string) => `/api/events/${encodeURIComponent(slug)}`,
  eventCalendar: (slug: string) => `/api/events/${encodeURIComponent(slug)}/calendar.ics`,
  merch: '/api/merch',
  merchItem: (slug: string) => `/api/merch/${encodeURIComponent(slug)}`,
  blog: '/api/blog',
  faq: '/api/faq',
  blogPost: (slug: string) => `/api/blog/${encodeURIComponent(slug)}`,
} as const;
