import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** Asks again: the failed query's `refetch` (or every failed query's). */
  onRetry: () => unknown;
  /** Defaults to "could not load". */
  title?: string;
  /** The record does not exist (a 404, or an id that is no id): says so, with no retry (asking again cannot help). */
  notFound?: boolean;
  testId?: string;
  retryTestId?: string;
}

/** THE way to show that a read (a query) failed: in place, with a button that asks again. */
export function LoadErrorAlert({ onRetry, title, notFound = false, testId, retryTestId }: Props) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title={notFound ? t('errors.NOT_FOUND') : (title ?? t('common.loadError'))} data-testid={testId}>
      {!notFound && (
        <Button size="xs" variant="light" color="red" onClick={() => void onRetry()} data-testid={retryTestId}>
          {t('common.retry')}
        </Button>
      )}
    </Alert>
  );
}
