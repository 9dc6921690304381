import type { DemoVariant } from './demo-events.data.js';

export interface DemoMerch {
  id: number;
  slug: string;
  name: string;
  price: number;
  regularPrice: number;
  salePrice: number | null;
  /** null: stock not tracked (always available). */
  stock: number | null;
  /** Sizes: the item is then a variable product sold only by size. */
  sizes?: DemoVariant[];
  image: string;
  imageAlt: string;
  shortDescription: string;
  description: string;
  createdDaysAgo: number;
}

export const MERCH_CATEGORY = { slug: 'merch', name: 'Merch' };

export const DEMO_MERCH: DemoMerch[] = [
  {
    id: 201,
    slug: 'awhh-jutebeutel',
    name: 'AWHH Jutebeutel',
    price: 14.9,
    regularPrice: 14.9,
    salePrice: null,
    stock: 40,
    image: '/media/demo/merch-jutebeutel.svg',
    imageAlt: 'Schwarzer Jutebeutel mit goldenem AWHH-Schriftzug',
    shortDescription:
      '<p>Schwarzer Bio-Baumwollbeutel mit goldenem Siebdruck. Passt ein Laptop rein.</p>',
    description:
      '<p>Fair produziert aus 100 % Bio-Baumwolle, bedruckt in einer kleinen Siebdruckerei in Ottensen. Lange Henkel, 38 × 42 cm.</p>',
    createdDaysAgo: 120,
  },
  {
    id: 204,
    slug: 'awhh-t-shirt',
    name: 'AWHH T-Shirt',
    price: 25,
    regularPrice: 25,
    salePrice: null,
    stock: null,
    sizes: [
      { id: 2041, attribute: 'Größe', option: 'S', price: 25, stock: 8 },
      { id: 2042, attribute: 'Größe', option: 'M', price: 25, stock: 15 },
      { id: 2043, attribute: 'Größe', option: 'L', price: 25, stock: 12 },
      { id: 2044, attribute: 'Größe', option: 'XL', price: 25, stock: 0 },
    ],
    image: '/media/demo/merch-tshirt.svg',
    imageAlt: 'Schwarzes T-Shirt mit goldenem AWHH-Anker auf der Brust',
    shortDescription: '<p>Schwarzes Bio-Shirt mit goldenem Anker. Unisex, in S bis XL.</p>',
    description:
      '<p>Weiches Bio-Baumwoll-Shirt (180 g/m²) mit gesticktem Anker auf der Brust und „After Work Hamburg“ im Nacken. Unisex-Schnitt, fällt normal aus.</p>',
    createdDaysAgo: 45,
  },
  {
    id: 202,
    slug: 'awhh-emaille-becher',
    name: 'AWHH Emaille-Becher',
    price: 9.9,
    regularPrice: 12,
    salePrice: 9.9,
    stock: 6,
    image: '/media/demo/merch-becher.svg',
    imageAlt: 'Weißer Emaille-Becher mit schwarzem Rand und goldenem Anker-Logo',
    shortDescription: '<p>Für den Kaffee am Morgen nach dem Afterwork. Emaille, 350 ml.</p>',
    description:
      '<p>Robuster Emaille-Becher mit schwarzem Rand und unserem Anker-Logo. Nicht spülmaschinenfest, dafür praktisch unkaputtbar.</p>',
    createdDaysAgo: 90,
  },
  {
    id: 203,
    slug: 'awhh-cap-moin',
    name: 'AWHH Cap „Moin“',
    price: 24.9,
    regularPrice: 24.9,
    salePrice: null,
    stock: null,
    image: '/media/demo/merch-cap.svg',
    imageAlt: 'Dunkelblaue Baseballkappe mit goldener Stickerei „Moin“',
    shortDescription: '<p>Dunkelblaue Cap mit gesticktem „Moin“. Einheitsgröße, verstellbar.</p>',
    description:
      '<p>Sechs Panels, gebogener Schirm, Metallschnalle. Die Stickerei in Gold ist das einzige Wort, das man in Hamburg wirklich braucht.</p>',
    createdDaysAgo: 60,
  },
];
