import {
  type Availability,
  berlinIso,
  type BlogPost,
  type EventDetail,
  formatDateTime,
  formatEuro,
  type MerchDetail,
  toCents,
  type Variant,
  variantLabel,
} from '@awhh/machines';
import { FAQ_ENTRIES } from '../products/faq.data.js';
import { type PageMeta, plainText, SITE_NAME } from './html-head.js';

export const SITE_DESCRIPTION =
  'After Work Hamburg – Networking, Music & Drinks in exklusiven Locations. Tickets für die nächsten Events, Blog und FAQ.';

/** Default length of an event when the catalog gives no end (calendar and JSON-LD agree). */
export const DEFAULT_EVENT_DURATION_MS = 3 * 60 * 60 * 1000;

/** Pages that exist for trying things out (DESIGN "Test pages"): public, but never indexed. */
export const TEST_PAGES = [
  '/coupon-test',
  '/webhook-test',
  '/apple-pay-test',
  '/mail-test',
] as const;

/** Static routes of the SPA (SPEC §2) with their titles; `index: false` keeps them out of search. */
export const STATIC_PAGES: Record<string, { title: string; description: string; index: boolean }> =
  {
    '/': {
      title: `${SITE_NAME} – Networking, Music & Drinks`,
      description: SITE_DESCRIPTION,
      index: true,
    },
    '/faq': {
      title: `Häufige Fragen | ${SITE_NAME}`,
      description:
        'Antworten rund um Tickets, Gutscheine, Einlass und Dresscode bei After Work Hamburg.',
      index: true,
    },
    '/blog': {
      title: `Blog | ${SITE_NAME}`,
      description: 'Neuigkeiten, Rückblicke und Tipps rund um die After-Work-Events in Hamburg.',
      index: true,
    },
    '/contact': {
      title: `Kontakt | ${SITE_NAME}`,
      description:
        'Schreib uns: Fragen zu Tickets, Events oder Kooperationen mit After Work Hamburg.',
      index: true,
    },
    '/impressum': {
      title: `Impressum | ${SITE_NAME}`,
      description: 'Impressum von After Work Hamburg: Anbieter und Kontakt.',
      index: true,
    },
    '/datenschutz': {
      title: `Datenschutz | ${SITE_NAME}`,
      description: 'Wie After Work Hamburg mit deinen Daten umgeht.',
      index: true,
    },
    '/cart': {
      title: `Warenkorb | ${SITE_NAME}`,
      description: 'Dein Warenkorb bei After Work Hamburg.',
      // Decided: the cart page may be indexed (it holds no personal data in the HTML).
      index: true,
    },
    '/checkout': {
      title: `Bestellung prüfen | ${SITE_NAME}`,
      description: 'Prüfe deine Bestellung bei After Work Hamburg.',
      index: false,
    },
    '/success': {
      title: `Deine Bestellung | ${SITE_NAME}`,
      description: 'Der Stand deiner Bestellung bei After Work Hamburg.',
      index: false,
    },
    '/coupon-test': {
      title: `Gutschein-Test | ${SITE_NAME}`,
      description: 'Interne Testseite: Gutscheincodes prüfen.',
      index: false,
    },
    '/webhook-test': {
      title: `Webhook-Test | ${SITE_NAME}`,
      description: 'Interne Testseite: eingegangene Zahlungsereignisse.',
      index: false,
    },
    '/apple-pay-test': {
      title: `Apple-Pay-Test | ${SITE_NAME}`,
      description: 'Interne Testseite: Verfügbarkeit von Apple Pay und Google Pay.',
      index: false,
    },
    '/mail-test': {
      title: `Testpostfach | ${SITE_NAME}`,
      description: 'Interne Testseite: die Mails des Testmodus mit ihren Anhängen.',
      index: false,
    },
    // DESIGN "Tickets and the door": the door staff's check-in, never indexed.
    '/einlass': {
      title: `Einlass | ${SITE_NAME}`,
      description: 'Check-in am Einlass für das Team an der Tür.',
      index: false,
    },
  };

export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${publicUrl}/`).toString();
}

const SCHEMA_AVAILABILITY: Record<Availability, string> = {
  available: 'https://schema.org/InStock',
  few_left: 'https://schema.org/LimitedAvailability',
  sold_out: 'https://schema.org/SoldOut',
};

/** Products are in stock or not; few left is still in stock. */
const PRODUCT_AVAILABILITY: Record<Availability, string> = {
  available: 'https://schema.org/InStock',
  few_left: 'https://schema.org/InStock',
  sold_out: 'https://schema.org/OutOfStock',
};

type Saleable = Pick<MerchDetail, 'price' | 'currency' | 'availability' | 'variants'>;

/**
 * DESIGN "Everything the shop sells": one Offer per variant (ticket tier, size), named
 * after its option values; a simple product has one Offer. All point to the page.
 */
function offersOf(
  item: Saleable,
  url: string,
  availability: Record<Availability, string>,
): object | object[] {
  const offer = (price: number, state: Availability) => ({
    '@type': 'Offer',
    url,
    price: price.toFixed(2),
    priceCurrency: item.currency.toUpperCase(),
    availability: availability[state],
  });
  if (item.variants.length === 0) return offer(item.price, item.availability);
  return item.variants.map((v: Variant) => ({
    ...offer(v.price, v.availability),
    name: v.name || variantLabel(v.attributes),
    sku: String(v.id),
  }));
}

/** "ab 35,00 €" when the variants on offer differ in price (as the cards on / say). */
function fromPrice(item: Saleable): string {
  const open = item.variants.filter((v) => v.availability !== 'sold_out');
  const range = new Set(open.map((v) => toCents(v.price))).size > 1;
  return `${range ? 'ab ' : ''}${formatEuro(item.price)}`;
}

function organization(publicUrl: string) {
  return { '@type': 'Organization', name: SITE_NAME, url: `${publicUrl}/` };
}

export function staticPageMeta(publicUrl: string, path: string): PageMeta | null {
  const page = STATIC_PAGES[path];
  if (!page) return null;
  const jsonLd: object[] = [];
  if (path === '/') {
    jsonLd.push({
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: SITE_NAME,
      url: `${publicUrl}/`,
      inLanguage: 'de-DE',
      publisher: organization(publicUrl),
    });
  }
  if (path === '/faq') {
    jsonLd.push({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: FAQ_ENTRIES.map((entry) => ({
        '@type': 'Question',
        name: entry.question,
        acceptedAnswer: { '@type': 'Answer', text: entry.answer },
      })),
    });
  }
  return {
    title: page.title,
    description: page.description,
    canonical: absoluteUrl(publicUrl, path),
    noindex: !page.index,
    ogType: 'website',
    image: null,
    jsonLd,
  };
}

export function eventPageMeta(publicUrl: string, event: EventDetail): PageMeta {
  const url = absoluteUrl(publicUrl, `/events/${encodeURIComponent(event.slug)}`);
  const start = event.startsAt ? new Date(event.startsAt) : null;
  const summary = plainText(event.shortDescription || event.descriptionHtml, 200);
  const facts = [
    start ? formatDateTime(start) : null,
    event.venue,
    event.availability === 'sold_out' ? 'ausverkauft' : `Tickets ab ${formatEuro(event.price)}`,
  ].filter(Boolean);
  const description = plainText([facts.join(' · '), summary].filter(Boolean).join('. '), 300);
  const image = event.image
    ? { url: absoluteUrl(publicUrl, event.image.src), alt: event.image.alt || event.name }
    : null;

  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.name,
    description: plainText(event.descriptionHtml || event.shortDescription, 1000),
    url,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: {
      '@type': 'Place',
      name: event.venue ?? 'Hamburg',
      address: { '@type': 'PostalAddress', addressLocality: 'Hamburg', addressCountry: 'DE' },
    },
    organizer: organization(publicUrl),
    offers: offersOf(event, url, SCHEMA_AVAILABILITY),
  };
  if (start) {
    jsonLd.startDate = berlinIso(start);
    jsonLd.endDate = berlinIso(new Date(start.getTime() + DEFAULT_EVENT_DURATION_MS));
  }
  if (image) jsonLd.image = [image.url];

  return {
    title: `${event.name} | ${SITE_NAME}`,
    description,
    canonical: url,
    noindex: false,
    ogType: 'website',
    image,
    jsonLd: [jsonLd],
  };
}

/** "Größe S, M, L": what can still be chosen, for the description. */
function variantsOnOffer(variants: readonly Variant[]): string | null {
  const open = variants.filter((v) => v.availability !== 'sold_out');
  if (open.length === 0) return null;
  const attributes = [...new Set(open.flatMap((v) => v.attributes.map((a) => a.name)))];
  const names = open.map((v) => v.name || variantLabel(v.attributes)).join(', ');
  return attributes.length === 1 ? `${attributes[0]} ${names}` : names;
}

export function merchPageMeta(publicUrl: string, item: MerchDetail): PageMeta {
  const url = absoluteUrl(publicUrl, `/merch/${encodeURIComponent(item.slug)}`);
  const summary = plainText(item.shortDescription || item.descriptionHtml, 200);
  const facts = [
    item.availability === 'sold_out' ? 'ausverkauft' : fromPrice(item),
    variantsOnOffer(item.variants),
  ].filter(Boolean);
  const description = plainText([summary, facts.join(' · ')].filter(Boolean).join(' – '), 300);
  const image = item.image
    ? { url: absoluteUrl(publicUrl, item.image.src), alt: item.image.alt || item.name }
    : null;
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: item.name,
    description: plainText(item.descriptionHtml || item.shortDescription, 1000),
    url,
    sku: String(item.id),
    brand: { '@type': 'Brand', name: SITE_NAME },
    offers: offersOf(item, url, PRODUCT_AVAILABILITY),
  };
  if (image) jsonLd.image = [image.url];
  return {
    title: `${item.name} | ${SITE_NAME}`,
    description,
    canonical: url,
    noindex: false,
    ogType: 'website',
    image,
    jsonLd: [jsonLd],
  };
}

export function blogPostPageMeta(publicUrl: string, post: BlogPost): PageMeta {
  const url = absoluteUrl(publicUrl, `/blog/${encodeURIComponent(post.slug)}`);
  const description = plainText(post.excerpt || post.contentHtml, 300);
  const image = post.image
    ? { url: absoluteUrl(publicUrl, post.image.src), alt: post.image.alt || post.title }
    : null;
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title.slice(0, 110),
    description,
    datePublished: post.publishedAt,
    url,
    mainEntityOfPage: url,
    inLanguage: 'de-DE',
    author: post.author ? { '@type': 'Person', name: post.author } : organization(publicUrl),
    publisher: organization(publicUrl),
  };
  if (image) jsonLd.image = [image.url];
  return {
    title: `${post.title} | ${SITE_NAME}`,
    description,
    canonical: url,
    noindex: false,
    ogType: 'article',
    image,
    jsonLd: [jsonLd],
    extraOg: [['article:published_time', post.publishedAt]],
  };
}

/**
 * DESIGN "Tickets and the door": a ticket page is personal. The HTML names nothing of the
 * ticket (no event, no holder; link previews of a forwarded link show none of it), has no
 * canonical URL and no JSON-LD, and asks not to be indexed.
 */
export function ticketPageMeta(): PageMeta {
  return {
    title: `Dein Ticket | ${SITE_NAME}`,
    description: 'Dein Ticket für ein Event von After Work Hamburg, mit QR-Code für den Einlass.',
    canonical: null,
    noindex: true,
    ogType: 'website',
    image: null,
    jsonLd: [],
  };
}

export function notFoundPageMeta(): PageMeta {
  return {
    title: `Seite nicht gefunden | ${SITE_NAME}`,
    description:
      'Diese Seite gibt es nicht (mehr). Die nächsten Events findest du auf der Startseite.',
    canonical: null,
    noindex: true,
    ogType: 'website',
    image: null,
    jsonLd: [],
  };
}
