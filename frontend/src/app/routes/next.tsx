import { redirect } from 'react-router';
import { nextEventLink, type DatedProduct } from '@awhh/machines';
import { api } from '@/config/paths';
import { apiGet } from '@/lib/api-client';

/** DESIGN: /next redirects to the next event's page, or / when there is none. */
export async function loader({ request }: { request: Request }) {
  const feed = await apiGet<DatedProduct[]>(api.products, request.signal);
  return redirect(nextEventLink(Array.isArray(feed) ? feed : []));
}

export function Component() {
  return null;
}
