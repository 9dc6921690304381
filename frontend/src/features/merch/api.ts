import type { MerchDetail, MerchSummary } from '@awhh/machines';
import { api } from '@/config/paths';
import { apiGet } from '@/lib/api-client';

// Trusted as typed, like the events: the server validates against the shared schemas and
// zod stays out of the browser's first load.
export function fetchMerch(signal?: AbortSignal): Promise<MerchSummary[]> {
  return apiGet<MerchSummary[]>(api.merch, signal);
}

export function fetchMerchItem(slug: string, signal?: AbortSignal): Promise<MerchDetail> {
  return apiGet<MerchDetail>(api.merchItem(slug), signal);
}
