import { Button, Group } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface Props {
  onCancel: () => void;
  /** The form is being sent: the submit button spins. */
  submitting: boolean;
  /** The submit button is off (e.g. P2P without a P2P server). */
  submitDisabled?: boolean;
  /** Defaults to "Save". */
  submitLabel?: string;
  cancelTestId?: string;
  submitTestId: string;
}

/** The foot of a create or edit form: Cancel, then the submit button. */
export function FormActions({ onCancel, submitting, submitDisabled = false, submitLabel, cancelTestId, submitTestId }: Props) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel} data-testid={cancelTestId}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={submitting} disabled={submitDisabled} leftSection={<IconDeviceFloppy size={18} />} data-testid={submitTestId}>
        {submitLabel ?? t('common.save')}
      </Button>
    </Group>
  );
}
