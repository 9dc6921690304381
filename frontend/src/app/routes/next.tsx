import { redirect, type LoaderFunctionArgs } from 'react-router';
import { nextEventLink } from '@awhh/machines';
import { dataSource } from '@/lib/data-source';

/** rules §4: /next leads to the next event's page, or / when there is none (302 on the server). */
export async function loader({ request }: LoaderFunctionArgs) {
  const feed = await dataSource().products(request.signal);
  return redirect(nextEventLink(Array.isArray(feed) ? feed : []));
}

export function Component() {
  return null;
}
