import {
  type Availability,
  berlinIso,
  type BlogPost,
  DEFAULT_EVENT_DURATION_MS,
  type EventDetail,
  type FaqEntry,
  formatDateTime,
  formatEuro,
  type MerchDetail,
  type Variant,
  variantLabel,
} from '@awhh/machines';
import { hasPriceRange } from './offer';
import { absoluteUrl, type PageMeta, SITE_NAME } from './page-head';

// The head of the pages that search engines and link previews read (they run no
// JavaScript): descriptions and schema.org JSON-LD, built from the loaders' data. Only the
// route chunks that need them import this module.

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Text of the catalog's sanitized HTML for descriptions and JSON-LD (never rendered as HTML). */
export function plainText(html: string | null | undefined, maxLength = Infinity): string {
  if (!html) return '';
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === '#') {
        const n =
          code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : Number(code.slice(1));
        return Number.isFinite(n) ? String.fromCodePoint(n) : whole;
      }
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/\s*\[(…|\.\.\.)\]\s*$/, ' …')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut}…`;
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
 * rules "Everything the shop sells": one Offer per variant (ticket tier, size), named
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
  return `${hasPriceRange(item.variants) ? 'ab ' : ''}${formatEuro(item.price)}`;
}

export function organization(origin: string) {
  return { '@type': 'Organization', name: SITE_NAME, url: `${origin}/` };
}

function previewImage(
  origin: string,
  image: { src: string; alt?: string | null } | null,
  name: string,
) {
  return image ? { src: absoluteUrl(origin, image.src), alt: image.alt || name } : null;
}

export function eventPageMeta(origin: string, event: EventDetail): PageMeta {
  const path = `/events/${encodeURIComponent(event.slug)}`;
  const url = absoluteUrl(origin, path);
  const start = event.startsAt ? new Date(event.startsAt) : null;
  const summary = plainText(event.shortDescription || event.descriptionHtml, 200);
  const facts = [
    start ? formatDateTime(start) : null,
    event.venue,
    event.availability === 'sold_out' ? 'ausverkauft' : `Tickets ab ${formatEuro(event.price)}`,
  ].filter(Boolean);
  const description = plainText([facts.join(' · '), summary].filter(Boolean).join('. '), 300);
  const image = previewImage(origin, event.image, event.name);
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
    organizer: organization(origin),
    offers: offersOf(event, url, SCHEMA_AVAILABILITY),
  };
  if (start) {
    jsonLd.startDate = berlinIso(start);
    jsonLd.endDate = berlinIso(new Date(start.getTime() + DEFAULT_EVENT_DURATION_MS));
  }
  if (image) jsonLd.image = [image.src];
  return {
    title: event.name,
    description,
    canonical: path,
    image,
    jsonLd: [jsonLd],
    lcpImage: event.image?.src ?? null,
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

export function merchPageMeta(origin: string, item: MerchDetail): PageMeta {
  const path = `/merch/${encodeURIComponent(item.slug)}`;
  const url = absoluteUrl(origin, path);
  const summary = plainText(item.shortDescription || item.descriptionHtml, 200);
  const facts = [
    item.availability === 'sold_out' ? 'ausverkauft' : fromPrice(item),
    variantsOnOffer(item.variants),
  ].filter(Boolean);
  const description = plainText([summary, facts.join(' · ')].filter(Boolean).join(' – '), 300);
  const image = previewImage(origin, item.image, item.name);
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
  if (image) jsonLd.image = [image.src];
  return {
    title: item.name,
    description,
    canonical: path,
    image,
    jsonLd: [jsonLd],
    lcpImage: item.image?.src ?? null,
  };
}

export function blogPostPageMeta(origin: string, post: BlogPost): PageMeta {
  const path = `/blog/${encodeURIComponent(post.slug)}`;
  const url = absoluteUrl(origin, path);
  const description = plainText(post.excerpt || post.contentHtml, 300);
  const image = previewImage(origin, post.image, post.title);
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title.slice(0, 110),
    description,
    datePublished: post.publishedAt,
    url,
    mainEntityOfPage: url,
    inLanguage: 'de-DE',
    author: post.author ? { '@type': 'Person', name: post.author } : organization(origin),
    publisher: organization(origin),
  };
  if (image) jsonLd.image = [image.src];
  return {
    title: post.title,
    description,
    canonical: path,
    ogType: 'article',
    image,
    jsonLd: [jsonLd],
    extraOg: [['article:published_time', post.publishedAt]],
  };
}

/** The questions exactly as the page shows them (GET /api/faq). */
export function faqJsonLd(entries: readonly FaqEntry[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: entries.map((entry) => ({
      '@type': 'Question',
      name: entry.question,
      acceptedAnswer: { '@type': 'Answer', text: entry.answer },
    })),
  };
}
