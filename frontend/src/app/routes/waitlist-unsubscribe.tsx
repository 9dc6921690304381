import { data, useParams, type LoaderFunctionArgs } from 'react-router';
import type { RouteHandle } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import { UnsubscribeForm } from '@/features/waitlist/waitlist-views';
import { WAITLIST_TOKEN } from './waitlist-confirm';

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
  const { token = '' } = useParams();
  return (
    <Page title="Abmelden" eyebrow="Warteliste">
      <UnsubscribeForm token={token} />
    </Page>
  );
}
