import type { EventDetail, MerchDetail, Variant } from '@awhh/machines';

// The demo catalog's variable products (rules "Everything the shop sells"), as the API
// answers them.

function variant(
  id: number,
  attribute: string,
  option: string,
  price: number,
  over: Partial<Variant> = {},
): Variant {
  return {
    id,
    name: option,
    attributes: [{ name: attribute, option }],
    price,
    regularPrice: price,
    availability: 'available',
    available: 40,
    ...over,
  };
}

export const tieredEvent: EventDetail = {
  id: 109,
  slug: 'sommer-afterwork-ms-hamburg',
  name: 'Sommer-Afterwork auf der MS Hamburg',
  image: { src: '/media/demo/event-ms-hamburg.svg', alt: 'Salonschiff auf der Elbe' },
  price: 35,
  regularPrice: 35,
  currency: 'eur',
  availability: 'available',
  available: 44,
  shortDescription: 'Drei Stunden auf der Elbe.',
  startsAt: '2026-07-01T16:00:00.000Z',
  venue: 'MS Hamburg, Anleger Landungsbrücken 1',
  past: false,
  descriptionHtml: '<p>Leinen los für unser Sommer-Afterwork.</p>',
  maxPerOrder: 10,
  variants: [
    variant(1091, 'Ticket', 'Early Bird', 25, { availability: 'sold_out', available: 0 }),
    variant(1092, 'Ticket', 'Regulär', 35),
    variant(1093, 'Ticket', 'VIP', 49, {
      regularPrice: 59,
      availability: 'few_left',
      available: 4,
    }),
  ],
};

export const simpleEvent: EventDetail = {
  ...tieredEvent,
  id: 101,
  slug: 'afterwork-dachterrasse',
  name: 'Afterwork auf der Dachterrasse',
  price: 19.9,
  regularPrice: 24.9,
  available: 30,
  variants: [],
};

export const shirt: MerchDetail = {
  id: 204,
  slug: 'awhh-t-shirt',
  name: 'AWHH T-Shirt',
  image: { src: '/media/demo/merch-tshirt.svg', alt: 'Schwarzes T-Shirt mit goldenem Anker' },
  price: 25,
  regularPrice: 25,
  currency: 'eur',
  availability: 'available',
  available: 35,
  shortDescription: 'Schwarzes Bio-Shirt mit goldenem Anker.',
  descriptionHtml: '<p>Weiches Bio-Baumwoll-Shirt mit gesticktem Anker.</p>',
  maxPerOrder: 20,
  variants: [
    variant(2041, 'Größe', 'S', 25, { available: 8 }),
    variant(2042, 'Größe', 'M', 25, { available: 15 }),
    variant(2043, 'Größe', 'L', 25, { available: 12 }),
    variant(2044, 'Größe', 'XL', 25, { availability: 'sold_out', available: 0 }),
  ],
};

export const mug: MerchDetail = {
  ...shirt,
  id: 202,
  slug: 'awhh-emaille-becher',
  name: 'AWHH Emaille-Becher',
  image: null,
  price: 9.9,
  regularPrice: 12,
  availability: 'few_left',
  available: 6,
  shortDescription: 'Für den Kaffee am Morgen danach.',
  variants: [],
};
