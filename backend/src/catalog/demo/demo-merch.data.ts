export interface DemoMerch {
  id: number;
  slug: string;
  name: string;
  price: number;
  regularPrice: number;
  salePrice: number | null;
  /** null: stock not tracked (always available). */
  stock: number | null;
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
