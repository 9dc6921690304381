import { useEffect, useState } from 'react';
import type { Availability, LiveAvailability } from '@awhh/machines';
import { fetchLiveAvailability } from './api';

interface Stocked {
  availability: Availability;
  available: number | null;
}

/**
 * rules "Capacity": the catalog's stock knows nothing of open checkouts and waiting-list
 * offers; the checkout side does. Asked once the page runs in the browser (the server's
 * HTML shows the catalog's word); until then, or when the checkout side does not answer,
 * the catalog's availability stands. A change of `asked` asks again.
 */
export function useLiveAvailability(productId: number, asked = 0): LiveAvailability | null {
  const [live, setLive] = useState<LiveAvailability | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchLiveAvailability(productId, controller.signal).then(setLive, () => undefined);
    return () => controller.abort();
  }, [productId, asked]);
  return live;
}

/** "Few left" from 10 down, as the catalog's availability says it. */
const FEW_LEFT = 10;

/** The catalog's availability, lowered to what nobody holds. */
function lowered<T extends Stocked>(item: T, free: number | null | undefined): T {
  if (free === null || free === undefined || item.availability === 'sold_out') return item;
  if (item.available !== null && free >= item.available) return item;
  if (free <= 0) return { ...item, availability: 'sold_out', available: 0 };
  return {
    ...item,
    availability: free <= FEW_LEFT ? 'few_left' : item.availability,
    available: free,
  };
}

/** The product and its variants with the live availability applied. */
export function withLiveAvailability<
  P extends Stocked & { variants: (Stocked & { id: number })[] },
>(product: P, live: LiveAvailability | null): P {
  if (!live) return product;
  if (product.variants.length === 0) return lowered(product, live.free);
  const variants = product.variants.map((v) =>
    lowered(v, live.variants.find((l) => l.id === v.id)?.free),
  );
  const open = variants.filter((v) => v.availability !== 'sold_out');
  return {
    ...product,
    variants,
    ...(open.length === 0 ? { availability: 'sold_out' as const, available: 0 } : {}),
  };
}
