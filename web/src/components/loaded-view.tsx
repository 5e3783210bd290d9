import type { ReactNode } from 'react';
import { LoadingScreen } from './loading-screen';
import { RetryAlert } from './retry-alert';

interface LoadedViewProps<T> {
  /** The record's read (its query hook's result). */
  query: { data?: T; isError: boolean; refetch: () => unknown };
  /** The failed read's alert: its `data-testid` and what it says. */
  errorTestId: string;
  errorText: ReactNode;
  children: (data: T) => ReactNode;
}

/** A screen's record: what it shows of it once read, the failed read with a retry, or a spinner. */
export function LoadedView<T>({ query, errorTestId, errorText, children }: LoadedViewProps<T>) {
  if (query.data) return children(query.data);
  if (query.isError) {
    return (
      <RetryAlert testId={errorTestId} onRetry={() => void query.refetch()}>
        {errorText}
      </RetryAlert>
    );
  }
  return <LoadingScreen inline />;
}
