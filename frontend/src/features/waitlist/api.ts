import type {
  LiveAvailability,
  WaitlistConfirmation,
  WaitlistCounts,
  WaitlistJoinRequest,
  WaitlistOfferView,
} from '@awhh/machines';
import { waitlistApi as api } from './paths';
import { apiGet, apiPost } from '@/lib/api-client';

// rules "Waiting list". Trusted as typed, as the other features do: the server validates
// against the shared schemas and zod stays out of the event page's chunk.

/** Always 202 `{}`: the answer says nothing about whether the address was known. */
export async function joinWaitlist(request: WaitlistJoinRequest): Promise<void> {
  await apiPost<unknown>(api.join, request);
}

export function confirmWaitlist(token: string, signal?: AbortSignal) {
  return apiPost<WaitlistConfirmation>(api.confirm(token), {}, signal);
}

export function fetchOffer(token: string, signal?: AbortSignal) {
  return apiGet<WaitlistOfferView>(api.offer(token), signal);
}

export function declineOffer(token: string) {
  return apiPost<WaitlistOfferView>(api.decline(token), {});
}

export function unsubscribe(token: string, signal?: AbortSignal) {
  return apiPost<{ removed: boolean }>(api.unsubscribe(token), {}, signal);
}

export function fetchWaitlistCounts(signal?: AbortSignal) {
  return apiGet<WaitlistCounts>(api.counts, signal);
}

/** Null when the answer is not about this product (a test double, an old API). */
export async function fetchLiveAvailability(
  productId: number,
  signal?: AbortSignal,
): Promise<LiveAvailability | null> {
  const live = await apiGet<LiveAvailability>(api.liveAvailability(productId), signal);
  return live && live.productId === productId && Array.isArray(live.variants) ? live : null;
}
