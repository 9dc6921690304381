import { mug, shirt, tieredEvent } from '../../test/catalog-fixtures';
import { eventPageMeta, merchPageMeta, plainText } from './structured-data';

// What search engines read of event and merch pages (rules "Everything the shop sells").
const ORIGIN = 'https://awhh.example';

describe('structured data of the pages', () => {
  it('gives an event one Offer per ticket tier, sold-out tiers included, and Berlin times', () => {
    const meta = eventPageMeta(ORIGIN, tieredEvent);
    expect(meta.title).toBe(tieredEvent.name);
    expect(meta.canonical).toBe(`/events/${tieredEvent.slug}`);
    expect(meta.lcpImage).toBe(tieredEvent.image!.src);
    const [ld] = meta.jsonLd as Record<string, unknown>[];
    expect(ld).toMatchObject({ '@type': 'Event', name: tieredEvent.name });
    const offers = ld!.offers as { name: string; availability: string; price: string }[];
    expect(offers.map((o) => [o.name, o.price, o.availability])).toEqual(
      tieredEvent.variants.map((v) => [
        v.name,
        v.price.toFixed(2),
        expect.stringMatching(/^https:\/\/schema\.org\//),
      ]),
    );
    expect(ld!.startDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  });

  it('describes a variable product as a Product with one Offer per size', () => {
    const meta = merchPageMeta(ORIGIN, shirt);
    const [ld] = meta.jsonLd as Record<string, unknown>[];
    expect(ld).toMatchObject({
      '@type': 'Product',
      name: shirt.name,
      url: `${ORIGIN}/merch/${shirt.slug}`,
      image: [`${ORIGIN}${shirt.image!.src}`],
    });
    expect((ld!.offers as unknown[]).length).toBe(shirt.variants.length);
  });

  it('gives a simple product one Offer; few left is still in stock', () => {
    const [ld] = merchPageMeta(ORIGIN, { ...mug, availability: 'few_left' }).jsonLd as Record<
      string,
      unknown
    >[];
    expect(ld!.offers).toMatchObject({
      '@type': 'Offer',
      price: mug.price.toFixed(2),
      availability: 'https://schema.org/InStock',
    });
  });

  it('reads plain text out of sanitised HTML', () => {
    expect(plainText('<p>Bio &amp; fair&nbsp;&#8211; <b>neu</b></p>')).toBe('Bio & fair – neu');
    expect(plainText('eins zwei drei vier', 12)).toBe('eins zwei…');
  });
});
