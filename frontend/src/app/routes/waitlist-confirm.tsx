import { useEffect } from 'react';
import { data, useLoaderData, useRevalidator, type LoaderFunctionArgs } from 'react-router';
import type { WaitlistConfirmation } from '@awhh/machines';
import { errorText, isNotFound } from '@/lib/api-client';
import { dataSource } from '@/lib/data-source';
import type { RouteHandle } from '@/lib/page-head';
import { ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import { confirmWaitlist } from '@/features/waitlist/api';
import { ConfirmedView, ConfirmNotFound } from '@/features/waitlist/waitlist-views';

type ConfirmState =
  | { status: 'pending' }
  | { status: 'confirmed'; entry: WaitlistConfirmation }
  | { status: 'not-found'; message: string }
  | { status: 'failed'; message: string };

/** rules "Waiting list": the links carry 24 random bytes, base64url. */
export const WAITLIST_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export async function loader({ params, request }: LoaderFunctionArgs): Promise<{
  state: ConfirmState;
}> {
  const token = params.token ?? '';
  if (!WAITLIST_TOKEN.test(token)) throw data('Link nicht gefunden', { status: 404 });
  // The entry is personal and lives on the checkout side: the browser confirms it once the
  // page is hydrated (a mail scanner fetching the link runs no script and confirms nothing).
  if (dataSource().onServer) return { state: { status: 'pending' } };
  try {
    return { state: { status: 'confirmed', entry: await confirmWaitlist(token, request.signal) } };
  } catch (error) {
    if (isNotFound(error)) return { state: { status: 'not-found', message: errorText(error) } };
    return { state: { status: 'failed', message: errorText(error) } };
  }
}

export const handle: RouteHandle<Awaited<ReturnType<typeof loader>>> = {
  meta: () => ({
    title: 'Warteliste bestätigen',
    description: 'Bestätige deinen Platz auf der Warteliste von After Work Hamburg.',
    canonical: null,
    noindex: true,
  }),
};

export function Component() {
  const { state } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const pending = state.status === 'pending';
  useEffect(() => {
    if (pending) void revalidate();
  }, [pending, revalidate]);
  return (
    <Page title="Warteliste" eyebrow="Bestätigung">
      {state.status === 'confirmed' ? (
        <ConfirmedView entry={state.entry} />
      ) : state.status === 'not-found' ? (
        <ConfirmNotFound message={state.message} />
      ) : state.status === 'failed' ? (
        <ErrorState message={state.message} onRetry={() => void revalidate()} />
      ) : (
        <Loading label="Eintrag wird bestätigt">
          <Skeleton height="10rem" width="100%" />
        </Loading>
      )}
    </Page>
  );
}
