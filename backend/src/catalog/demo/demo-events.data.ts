import type { MetaData } from '@awhh/machines';
import { formats, type WallTime } from './demo-time.js';

/** A variation of a demo product (a ticket tier or a size), WooCommerce style. */
export interface DemoVariant {
  id: number;
  /** Attribute name and option ("Ticket" → "VIP", "Größe" → "L"). */
  attribute: string;
  option: string;
  price: number;
  /** Set when on sale: the price before the sale. */
  regularPrice?: number;
  /** null: stock not tracked. */
  stock: number | null;
}

export interface DemoEvent {
  id: number;
  slug: string;
  name: string;
  /** Days from today (Berlin); negative = past. */
  dayOffset: number;
  hour: number;
  minute: number;
  /** How this event stores its date: every key of rules §3 and "Events" appears once. */
  dateMeta: (t: WallTime) => MetaData[];
  venueMeta: MetaData;
  /** Where the venue is, for the wallet passes (rules "Wallet passes"); some events only. */
  placeMeta?: MetaData;
  price: number;
  regularPrice?: number;
  stock: number;
  /** Ticket tiers: the event is then a variable product sold only by tier. */
  tiers?: DemoVariant[];
  image: string;
  imageAlt: string;
  shortDescription: string;
  description: string;
}

const EVENTS_CATEGORY = { slug: 'events', name: 'Events' };
export { EVENTS_CATEGORY };

export const DEMO_EVENTS: DemoEvent[] = [
  {
    id: 101,
    slug: 'afterwork-dachterrasse',
    name: 'Afterwork auf der Dachterrasse',
    dayOffset: 9,
    hour: 18,
    minute: 30,
    dateMeta: (t) => [{ id: 9011, key: 'event_date', value: formats.mysql(t) }],
    venueMeta: {
      id: 9012,
      key: 'location',
      value: 'Dachterrasse am Großen Burstah, Hamburg-Altstadt',
    },
    placeMeta: { id: 9013, key: 'coordinates', value: '53.5487, 9.9905' },
    price: 24.9,
    stock: 120,
    image: '/media/demo/event-dachterrasse.svg',
    imageAlt: 'Stilisierte Dachterrasse mit Lichterketten über der Hamburger Skyline',
    shortDescription:
      '<p>Feierabend über den Dächern der Stadt: Drinks, DJ-Set und Menschen, die du noch nicht kennst.</p>',
    description: `<p>Feierabend gehört nach draußen. Für unser Dachterrassen-Afterwork öffnen wir ab 18:30 Uhr die Türen über der Altstadt und lassen den Arbeitstag mit Blick über die Dächer ausklingen.</p>
<h3>Was dich erwartet</h3>
<ul>
<li>Welcome-Drink an der Bar (alkoholfreie Alternativen inklusive)</li>
<li>Deep-House und Disco-Klassiker von DJ Marlene Kraus</li>
<li>Kleine Speed-Networking-Runde um 19:30 Uhr für alle, die schnell ins Gespräch kommen wollen</li>
</ul>
<p>Ob Gründerin, Steuerberater oder Werftingenieurin: Bei uns triffst du Menschen aus allen Branchen. Dresscode? Das, worin du dich nach Feierabend wohlfühlst.</p>
<p><strong>Hinweis:</strong> Bei Regen ziehen wir in die Lounge eine Etage tiefer um, das Event findet in jedem Fall statt.</p>`,
  },
  {
    id: 102,
    slug: 'elbstrand-sundowner',
    name: 'Elbstrand Sundowner',
    dayOffset: 23,
    hour: 19,
    minute: 0,
    dateMeta: (t) => [{ id: 9021, key: 'event_start_date', value: formats.isoInstant(t) }],
    venueMeta: { id: 9022, key: 'venue', value: 'Strandbar Övelgönne, Hamburg-Othmarschen' },
    price: 19,
    stock: 80,
    image: '/media/demo/event-elbstrand.svg',
    imageAlt: 'Sonnenuntergang über der Elbe mit Containerschiff am Horizont',
    shortDescription:
      '<p>Füße in den Sand, Blick auf die Containerriesen: unser Afterwork direkt an der Elbe.</p>',
    description: `<p>Wenn die Containerschiffe im Abendlicht vorbeiziehen, ist Hamburg am schönsten. Beim Elbstrand Sundowner treffen wir uns ab 19 Uhr in der Strandbar, mit Liegestühlen, Feuerschalen und einer Bar, die bis Mitternacht geöffnet hat.</p>
<p>Das Ticket enthält einen Aperitif nach Wahl. Für den Hunger gibt es Flammkuchen und vegane Bowls an der Strandküche.</p>
<p>Anfahrt: Mit der Fähre 62 ab Landungsbrücken bis Neumühlen/Övelgönne, von dort sind es fünf Minuten zu Fuß am Strand entlang.</p>`,
  },
  {
    id: 109,
    slug: 'sommer-afterwork-ms-hamburg',
    name: 'Sommer-Afterwork auf der MS Hamburg',
    dayOffset: 16,
    hour: 18,
    minute: 0,
    dateMeta: (t) => [{ id: 9091, key: 'event_date', value: formats.mysql(t) }],
    venueMeta: { id: 9092, key: 'location', value: 'MS Hamburg, Anleger Landungsbrücken 1' },
    // A variable product: WooCommerce shows the lowest tier price on the parent.
    price: 25,
    stock: 0,
    tiers: [
      { id: 1091, attribute: 'Ticket', option: 'Early Bird', price: 25, stock: 0 },
      { id: 1092, attribute: 'Ticket', option: 'Regulär', price: 35, stock: 40 },
      { id: 1093, attribute: 'Ticket', option: 'VIP', price: 49, regularPrice: 59, stock: 4 },
    ],
    image: '/media/demo/event-ms-hamburg.svg',
    imageAlt: 'Salonschiff auf der Elbe im Abendlicht, dahinter die Kräne des Hafens',
    shortDescription:
      '<p>Drei Stunden auf der Elbe: Networking an Deck, DJ im Salon, Sonnenuntergang inklusive. Tickets in drei Kategorien.</p>',
    description: `<p>Leinen los für unser Sommer-Afterwork: Die MS Hamburg legt um 18 Uhr an den Landungsbrücken ab und dreht mit uns eine große Runde durch den Hafen, vorbei an der Elbphilharmonie, den Containerterminals und bis nach Övelgönne.</p>
<h3>Die Ticketkategorien</h3>
<ul>
<li><strong>Early Bird:</strong> der Einstieg zum kleinen Preis, solange der Vorrat reicht</li>
<li><strong>Regulär:</strong> Eintritt, Welcome-Drink und Platz an Deck und im Salon</li>
<li><strong>VIP:</strong> dazu Zugang zum Oberdeck mit eigener Bar und ein Flying Dinner</li>
</ul>
<p>Boarding ab 17:30 Uhr. Das Schiff legt pünktlich ab und ist gegen 21 Uhr zurück.</p>`,
  },
  {
    id: 103,
    slug: 'speicherstadt-networking-night',
    name: 'Speicherstadt Networking Night',
    dayOffset: 37,
    hour: 19,
    minute: 0,
    dateMeta: (t) => [{ id: 9031, key: 'start_date', value: formats.german(t) }],
    venueMeta: { id: 9032, key: 'location', value: 'Alte Kaffeerösterei, Speicherstadt' },
    price: 29,
    stock: 7,
    image: '/media/demo/event-speicherstadt.svg',
    imageAlt: 'Backsteinspeicher der Speicherstadt bei Nacht, gespiegelt im Fleet',
    shortDescription:
      '<p>Backstein, Kaffeeduft und gute Gespräche: Networking in einem der schönsten Speicher der Stadt.</p>',
    description: `<p>Zwischen historischen Röstmaschinen und Jutesäcken wird es an diesem Abend persönlich: Die Networking Night ist unser Format für alle, die nicht nur Visitenkarten tauschen, sondern echte Kontakte knüpfen wollen.</p>
<h3>Ablauf</h3>
<ol>
<li>19:00 Uhr: Ankommen, Espresso-Martini oder Cold Brew Tonic</li>
<li>19:45 Uhr: Tischrunden zu „Neu in Hamburg“, „Selbstständig“ und „Karriere-Wechsel“</li>
<li>ab 21:00 Uhr: offenes Networking mit Live-Akustik-Set</li>
</ol>
<p>Die Plätze sind auf 60 Gäste begrenzt, damit jedes Gespräch Raum hat.</p>`,
  },
  {
    id: 104,
    slug: 'jazz-und-gin-hafencity',
    name: 'Jazz & Gin in der HafenCity',
    dayOffset: 51,
    hour: 19,
    minute: 30,
    dateMeta: (t) => [{ id: 9041, key: 'date', value: formats.unixSeconds(t) }],
    venueMeta: { id: 9042, key: 'venue', value: 'Lounge am Sandtorkai, HafenCity' },
    price: 35,
    regularPrice: 39,
    stock: 90,
    image: '/media/demo/event-jazz-gin.svg',
    imageAlt: 'Ginglas mit Zitronenzeste vor einem Kontrabass in warmem Licht',
    shortDescription: '<p>Ein Trio, drei Hamburger Gins und die Lichter der HafenCity.</p>',
    description: `<p>Für diesen Abend holen wir das Jonas-Petersen-Trio auf die Bühne: Kontrabass, Piano und Schlagzeug, irgendwo zwischen Bossa Nova und Bebop.</p>
<p>Dazu stellen drei Hamburger Brennereien ihre Gins vor. Im Ticket enthalten ist ein Tasting mit drei Gin &amp; Tonics; wer lieber alkoholfrei trinkt, bekommt eine Auswahl an hausgemachten Limonaden.</p>
<p>Frühbucher-Preis bis eine Woche vor dem Event.</p>`,
  },
  {
    id: 105,
    slug: 'soul-cocktails-kontorhaus',
    name: 'Soul & Cocktails im Kontorhaus',
    dayOffset: 72,
    hour: 7,
    minute: 0,
    // FooEvents stores day and time separately, the hour in 12-hour format.
    dateMeta: (t) => [
      { id: 9051, key: 'WooCommerceEventsDateMySQLFormat', value: formats.mysqlDay(t) },
      { id: 9052, key: 'WooCommerceEventsHour', value: '07' },
      { id: 9053, key: 'WooCommerceEventsMinutes', value: '00' },
      { id: 9054, key: 'WooCommerceEventsPeriod', value: 'p.m.' },
      { id: 9055, key: 'WooCommerceEventsEvent', value: 'Event' },
    ],
    venueMeta: {
      id: 9056,
      key: 'WooCommerceEventsLocation',
      value: 'Chilehaus-Lichthof, Kontorhausviertel',
    },
    placeMeta: { id: 9057, key: 'WooCommerceEventsGoogleMaps', value: '53.5483, 10.0012' },
    price: 27.5,
    stock: 150,
    image: '/media/demo/event-kontorhaus.svg',
    imageAlt: 'Klinkerfassade eines Kontorhauses mit warm erleuchteten Fenstern',
    shortDescription:
      '<p>Signature-Cocktails, Soul und Backstein-Romantik im Kontorhausviertel.</p>',
    description: `<p>Im überdachten Lichthof zwischen dunkelrotem Klinker mixen zwei Barkeeper Signature-Cocktails, dazu legt ein Soul-DJ Platten aus seiner Sammlung auf. Das Wetter spielt keine Rolle: Der Lichthof ist überdacht und beheizt.</p>
<p>Wer mag, bringt ein gut erhaltenes Buch für unseren Bücher-Tausch mit. Was übrig bleibt, spenden wir an die Bücherhallen Hamburg.</p>`,
  },
  {
    id: 106,
    slug: 'community-abend-alster',
    name: 'Community-Abend an der Alster',
    dayOffset: 95,
    hour: 18,
    minute: 0,
    dateMeta: (t) => [{ id: 9061, key: '_EventStartDate', value: formats.mysql(t) }],
    venueMeta: {
      id: 9062,
      key: 'location',
      value: 'Pavillon an der Außenalster, Hamburg-Uhlenhorst',
    },
    price: 32,
    stock: 0,
    image: '/media/demo/event-alster-abend.svg',
    imageAlt: 'Abendhimmel über der Außenalster mit Segelbooten im Vordergrund',
    shortDescription:
      '<p>Einmal im Quartal trifft sich die ganze AWHH-Community: Blick auf die Alster, viele bekannte Gesichter.</p>',
    description: `<p>Der Community-Abend ist der Abend, an dem sich die AWHH-Community wiedersieht. Sekt oder Alster-Spritz zur Begrüßung, ein kurzer Rückblick auf die letzten Monate und dann viel Zeit für Gespräche.</p>
<p>Dieses Event ist ausverkauft. Schreib uns über das Kontaktformular, wenn du auf die Warteliste möchtest.</p>`,
  },
  {
    id: 107,
    slug: 'afterwork-alsterpavillon',
    name: 'Afterwork im Alsterpavillon',
    dayOffset: -18,
    hour: 18,
    minute: 30,
    // Some plugins save the value wrapped in an array.
    dateMeta: (t) => [{ id: 9071, key: 'event_datetime', value: [formats.isoLocal(t)] }],
    venueMeta: { id: 9072, key: 'venue', value: 'Alsterpavillon am Jungfernstieg' },
    price: 22,
    stock: 14,
    image: '/media/demo/event-alsterpavillon.svg',
    imageAlt: 'Pavillon am Wasser mit Alsterdampfer und Bäumen am Ufer',
    shortDescription:
      '<p>Afterwork mit Blick auf die Binnenalster. Danke an alle, die dabei waren!</p>',
    description: `<p>Mit über 150 Gästen war das Afterwork im Alsterpavillon unser bisher größtes Event. Danke an alle, die dabei waren, und an das Team des Pavillons für die großartige Gastfreundschaft.</p>
<p>Einen Rückblick mit Fotos findest du in unserem Blog.</p>`,
  },
  {
    id: 108,
    slug: 'plattenabend-schanze',
    name: 'Plattenabend-Afterwork in der Schanze',
    dayOffset: -46,
    hour: 19,
    minute: 0,
    // The editor typed an impossible date into event_date; the rule falls through to start_date.
    dateMeta: (t) => [
      { id: 9081, key: 'event_date', value: `${t.year}-02-30 19:00:00` },
      { id: 9082, key: 'start_date', value: formats.mysql(t) },
    ],
    venueMeta: { id: 9083, key: 'location', value: 'Hinterhof-Loft im Schanzenviertel' },
    price: 18,
    stock: 0,
    image: '/media/demo/event-schanze.svg',
    imageAlt: 'Hinterhof mit Lichterketten und Altbaufassaden bei Nacht',
    shortDescription: '<p>Kleines Format, große Stimmung: unser Afterwork im Hinterhof-Loft.</p>',
    description: `<p>Ein Loft, ein Plattenspieler und eine lange Tafel: Beim Plattenabend-Afterwork ging es gemütlich zu. Wir haben Hausbowle ausgeschenkt, Platten getauscht und bis spät in den Abend geredet.</p>`,
  },
];
