import { Alert, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/errors';
import { FormPageShell } from './FormPageShell';

const SKELETON_ROWS = [1, 2, 3, 4, 5, 6];

interface Props<T> {
  title: string;
  /** Back button (and where Cancel or a save goes). */
  onBack: () => void;
  backTestId: string;
  errorTestId: string;
  /** The id in the URL is a valid id (else: "not found" without asking the server). */
  valid: boolean;
  /** The record's query. */
  query: { isError: boolean; error: unknown; data: T | undefined };
  /** A 404 says "not found" (else every load error says "could not load"). */
  notFoundOn404?: boolean;
  /** Skeleton rows while loading. */
  rows?: number;
  /** The form, once the record is in. */
  children: (data: T) => ReactNode;
}

/** The shell of every edit page (FormPageShell): the record's load error, a skeleton, or the form. */
export function EditPageShell<T>({ title, onBack, backTestId, errorTestId, valid, query, notFoundOn404 = true, rows = 4, children }: Props<T>) {
  const { t } = useTranslation();
  const notFound = !valid || (notFoundOn404 && isApiError(query.error) && query.error.status === 404);
  return (
    <FormPageShell title={title} onBack={onBack} backTestId={backTestId}>
      {!valid || query.isError ? (
        <Alert color="red" data-testid={errorTestId}>
          {notFound ? t('errors.NOT_FOUND') : t('common.loadError')}
        </Alert>
      ) : query.data === undefined ? (
        <Stack>
          {SKELETON_ROWS.slice(0, rows).map((row) => (
            <Skeleton key={row} h={40} />
          ))}
        </Stack>
      ) : (
        children(query.data)
      )}
    </FormPageShell>
  );
}
