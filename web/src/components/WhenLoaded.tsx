import { Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { isApiError } from '../api/errors';
import { LoadErrorAlert } from './LoadErrorAlert';

const SKELETON_ROWS = [1, 2, 3, 4, 5, 6];

interface Props<T> {
  /** The record's query. */
  query: { isError: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  /** The id in the URL is a valid id (else: "not found" without asking the server). */
  valid?: boolean;
  /** A 404 says "not found" (else every load error says "could not load"). */
  notFoundOn404?: boolean;
  errorTestId: string;
  /** Skeleton rows while loading (or a `skeleton` of the page's own shape). */
  rows?: number;
  skeleton?: ReactNode;
  /** What shows once the record is in. */
  children: (data: T) => ReactNode;
}

/** A page's (or a form's) record: its load error (LoadErrorAlert), a skeleton while it loads, then the content. */
export function WhenLoaded<T>({ query, valid = true, notFoundOn404 = true, errorTestId, rows = 4, skeleton, children }: Props<T>) {
  if (!valid || query.isError) {
    const notFound = !valid || (notFoundOn404 && isApiError(query.error) && query.error.status === 404);
    return <LoadErrorAlert onRetry={query.refetch} notFound={notFound} testId={errorTestId} />;
  }
  if (query.data === undefined) {
    return (
      skeleton ?? (
        <Stack>
          {SKELETON_ROWS.slice(0, rows).map((row) => (
            <Skeleton key={row} h={40} />
          ))}
        </Stack>
      )
    );
  }
  return children(query.data);
}
