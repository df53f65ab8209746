import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** Asks again (a query's refetch). */
  onRetry: () => unknown;
  /** Defaults to "could not load". */
  title?: string;
  testId?: string;
  retryTestId?: string;
}

/** A read that failed, with a button that asks again. */
export function LoadErrorAlert({ onRetry, title, testId, retryTestId }: Props) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title={title ?? t('common.loadError')} data-testid={testId}>
      <Button size="xs" variant="light" color="red" onClick={() => void onRetry()} data-testid={retryTestId}>
        {t('common.retry')}
      </Button>
    </Alert>
  );
}
