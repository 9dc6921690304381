import { data, type LoaderFunctionArgs } from 'react-router';
import type { RouteHandle } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import { UnsubscribeForm } from '@/features/waitlist/waitlist-views';
import { WAITLIST_TOKEN } from './waitlist-confirm';

// The page's button posts here.
export { unsubscribeAction as action } from '@/features/waitlist/waitlist-views';

export async function loader({ params }: LoaderFunctionArgs) {
  if (!WAITLIST_TOKEN.test(params.token ?? '')) throw data('Link nicht gefunden', { status: 404 });
  return null;
}

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Von der Warteliste abmelden',
    description: 'Abmeldung von der Warteliste von After Work Hamburg.',
    canonical: null,
    noindex: true,
  }),
};

/** rules "Waiting list": every mail links here. */
export function Component() {
  return (
    <Page title="Abmelden" eyebrow="Warteliste">
      <UnsubscribeForm />
    </Page>
  );
}
