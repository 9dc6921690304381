import { Suspense, type ReactNode } from 'react';
import { Await, useAsyncError, useRevalidator } from 'react-router';
import { errorText } from '@/lib/api-client';
import { ErrorState } from './feedback';

function DeferredError({ renderError }: { renderError?: (error: unknown) => ReactNode }) {
  const error = useAsyncError();
  const revalidator = useRevalidator();
  const custom = renderError?.(error);
  if (custom !== undefined && custom !== null) return <>{custom}</>;
  return <ErrorState message={errorText(error)} onRetry={() => void revalidator.revalidate()} />;
}

export interface DeferredProps<T> {
  /** A value renders at once (the server awaited it, lib/data-source.ts). */
  resolve: Promise<T> | T;
  fallback: ReactNode;
  children: (value: T) => ReactNode;
  /** Return something to replace the generic error state (e.g. a 404 page). */
  renderError?: (error: unknown) => ReactNode;
}

/** A loader's promise: skeleton while pending, error state with retry when it fails. */
export function Deferred<T>({ resolve, fallback, children, renderError }: DeferredProps<T>) {
  return (
    <Suspense fallback={fallback}>
      <Await resolve={resolve} errorElement={<DeferredError renderError={renderError} />}>
        {(value: T) => children(value)}
      </Await>
    </Suspense>
  );
}
