import type { OrderHandOff } from '../catalog.port.js';

/**
 * docs/ledger.md "A hand-off is done only when the shop holds what was charged": how an
 * order the shop keeps under our reference differs from the order the site charged. An
 * empty list: the shop's order is the sale, complete and paid.
 */

/** Statuses in which WooCommerce has taken the stock and counted the coupon's use. */
const PAID_STATUSES = new Set(['processing', 'completed']);
/** Statuses of an order WooCommerce stored but never paid: the hand-off may finish it. */
const UNPAID_STATUSES = new Set(['pending', 'on-hold', 'failed', 'checkout-draft']);

export interface ShopOrderLine {
  id: number;
  product_id: number;
  variation_id: number;
  quantity: number;
}

export interface ShopOrderRecord {
  id: number;
  status: string;
  total: number;
  lines: ShopOrderLine[];
  coupons: string[];
}

/** The fields of an order as WooCommerce renders it that the check reads; null when not one. */
export function shopOrderRecord(raw: unknown): ShopOrderRecord | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const o = raw as Record<string, unknown>;
  const id = Number(o.id);
  if (!Number.isSafeInteger(id) || id <= 0 || typeof o.status !== 'string') return null;
  const lines = (Array.isArray(o.line_items) ? o.line_items : []).flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const l = item as Record<string, unknown>;
    return [
      {
        id: Number(l.id) || 0,
        product_id: Number(l.product_id) || 0,
        variation_id: Number(l.variation_id) || 0,
        quantity: Number(l.quantity) || 0,
      },
    ];
  });
  const coupons = (Array.isArray(o.coupon_lines) ? o.coupon_lines : []).flatMap((c: unknown) =>
    typeof c === 'object' && c !== null && typeof (c as { code?: unknown }).code === 'string'
      ? [
          String((c as { code: string }).code)
            .trim()
            .toLowerCase(),
        ]
      : [],
  );
  return {
    id,
    status: o.status,
    total: Math.round(Number.parseFloat(String(o.total ?? '0')) * 100) || 0,
    lines,
    coupons,
  };
}

/** What the comparison reads of a line charged: its product, variation and quantity. */
export interface ChargedLine {
  productId: number;
  variationId?: number | null;
  quantity: number;
}

export interface HandOffDifference {
  kind: 'status' | 'lines' | 'total' | 'coupon';
  /** German, for the organizer's dashboard and mail. */
  message: string;
}

/** How the shop's order differs from what was charged; empty when it holds the sale. */
export function handOffDifferences(
  shop: ShopOrderRecord,
  order: Pick<OrderHandOff, 'total' | 'couponCode'> & { lines: readonly ChargedLine[] },
): HandOffDifference[] {
  const found: HandOffDifference[] = [];
  if (!PAID_STATUSES.has(shop.status)) {
    found.push({
      kind: 'status',
      message: `Die Bestellung #${shop.id} steht im Shop auf „${shop.status}“ statt „In Bearbeitung“.`,
    });
  }
  if (!sameLines(shop.lines, order.lines)) {
    found.push({
      kind: 'lines',
      message: `Die Positionen der Bestellung #${shop.id} im Shop (${describe(shop.lines)}) weichen von den bezahlten ab (${describe(
        order.lines.map((l) => ({
          product_id: l.productId,
          variation_id: l.variationId ?? 0,
          quantity: l.quantity,
        })),
      )}).`,
    });
  }
  if (shop.total !== order.total) {
    found.push({
      kind: 'total',
      message: `Die Bestellung #${shop.id} im Shop hat den Betrag ${euro(shop.total)} statt der bezahlten ${euro(order.total)}.`,
    });
  }
  const code = order.couponCode?.trim().toLowerCase();
  if (code && !shop.coupons.includes(code)) {
    found.push({
      kind: 'coupon',
      message: `Der Gutschein „${code}“ fehlt an der Bestellung #${shop.id} im Shop.`,
    });
  }
  return found;
}

/**
 * A half-made order: WooCommerce stored the row and failed before anything of the sale
 * (a crashing plugin, a timeout): unpaid, no lines, no stock taken. Removed and made anew.
 */
export function isEmptyShell(shop: ShopOrderRecord): boolean {
  return UNPAID_STATUSES.has(shop.status) && shop.lines.length === 0;
}

/** Stored with every line but never paid: setting it paid takes the stock and counts the coupon. */
export function isUnpaidButWhole(
  shop: ShopOrderRecord,
  order: Pick<OrderHandOff, 'lines'>,
): boolean {
  return UNPAID_STATUSES.has(shop.status) && sameLines(shop.lines, order.lines);
}

function sameLines(shop: readonly ShopOrderLine[], lines: readonly ChargedLine[]): boolean {
  const key = (productId: number, variationId: number) => `${productId}:${variationId}`;
  const want = new Map<string, number>();
  for (const l of lines) {
    const k = key(l.productId, l.variationId ?? 0);
    want.set(k, (want.get(k) ?? 0) + l.quantity);
  }
  const have = new Map<string, number>();
  for (const l of shop) {
    const k = key(l.product_id, l.variation_id);
    have.set(k, (have.get(k) ?? 0) + l.quantity);
  }
  if (want.size !== have.size) return false;
  for (const [k, q] of want) if (have.get(k) !== q) return false;
  return true;
}

function describe(lines: readonly Omit<ShopOrderLine, 'id'>[]): string {
  if (lines.length === 0) return 'keine';
  return lines
    .map((l) => `${l.quantity} × ${l.product_id}${l.variation_id ? `/${l.variation_id}` : ''}`)
    .join(', ');
}

function euro(cents: number): string {
  return `${(cents / 100).toFixed(2).replace('.', ',')} €`;
}

/**
 * rules "Hand-off refused": WooCommerce's reason in German, its own words beside it, so the
 * organizer reads what to fix (the dashboard and the mail show this).
 */
export function germanRefusal(original: string): string {
  const coupon = /["“„]([^"“”]+)["”“]/.exec(original)?.[1];
  const named = coupon ? ` „${coupon}“` : '';
  const rules: [RegExp, string][] = [
    [/usage limit/i, `Der Gutschein${named} ist aufgebraucht: sein Nutzungslimit ist erreicht.`],
    [/has expired/i, `Der Gutschein${named} ist abgelaufen.`],
    [/not applicable/i, `Der Gutschein${named} gilt nicht für die Produkte dieser Bestellung.`],
    [/minimum spend/i, `Der Mindestbestellwert des Gutscheins${named} ist nicht erreicht.`],
    [/maximum spend/i, `Der Höchstbestellwert des Gutscheins${named} ist überschritten.`],
    [/valid email/i, `Der Gutschein${named} gilt nur für bestimmte E-Mail-Adressen.`],
    [
      /coupon .*(does not exist|not exist)|invalid coupon/i,
      `Den Gutschein${named} gibt es im Shop nicht (mehr).`,
    ],
    [
      /product|variation/i,
      'Ein Produkt dieser Bestellung gibt es im Shop nicht (mehr) oder es ist nicht kaufbar.',
    ],
  ];
  const german =
    rules.find(([pattern]) => pattern.test(original))?.[1] ??
    'Der Shop hat die Bestellung abgelehnt.';
  return `${german} (WooCommerce: „${original}“)`;
}
