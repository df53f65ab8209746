import { Alert, Button, Paper, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/errors';
import { PageHeader } from './PageHeader';

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

/** The shell of every edit page: header with Back, then the error, a skeleton or the form. */
export function EditPageShell<T>({ title, onBack, backTestId, errorTestId, valid, query, notFoundOn404 = true, rows = 4, children }: Props<T>) {
  const { t } = useTranslation();
  const notFound = !valid || (notFoundOn404 && isApiError(query.error) && query.error.status === 404);
  return (
    <Stack gap={0} maw={900}>
      <PageHeader
        title={title}
        actions={
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={onBack} data-testid={backTestId}>
            {t('common.back')}
          </Button>
        }
      />
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
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
      </Paper>
    </Stack>
  );
}
