import { Button, Paper, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from './PageHeader';

interface Props {
  title: string;
  /** Back button (and where Cancel or a save goes); none on a page the menu opens. */
  onBack?: () => void;
  backTestId?: string;
  /** Between the header and the form's card (a notice, a shortcut); it brings its own bottom margin. */
  aboveForm?: ReactNode;
  /** The form; an edit page wraps it in WhenLoaded (the record's load error, a skeleton, then the form). */
  children: ReactNode;
}

/** THE shell of every form page (create, edit, settings-like): a header (with Back), then the form on a card. */
export function FormPageShell({ title, onBack, backTestId, aboveForm, children }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap={0} maw={900}>
      <PageHeader
        title={title}
        actions={
          onBack && (
            <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={onBack} data-testid={backTestId}>
              {t('common.back')}
            </Button>
          )
        }
      />
      {aboveForm}
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        {children}
      </Paper>
    </Stack>
  );
}
