import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { useSaveBouquet } from './api';
import type { Bouquet } from '../../api/types';
import './texts';

interface Props {
  opened: boolean;
  /** The bouquet to rename; undefined creates a new one. */
  bouquet?: Bouquet;
  onClose: () => void;
}

/** Create or rename a bouquet. */
export function BouquetModal({ opened, bouquet, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveBouquet();
  const form = useForm({
    initialValues: { bouquet_name: '' },
    validate: { bouquet_name: (v) => (v.trim() ? null : t('bouquets.nameRequired')) },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (opened) form.setValues({ bouquet_name: bouquet?.bouquet_name ?? '' });
  }, [opened, bouquet]);

  const submit = form.onSubmit(async ({ bouquet_name }) => {
    try {
      await save.mutateAsync({ id: bouquet?.id, bouquet_name: bouquet_name.trim() });
      notifySuccess(bouquet ? t('bouquets.renamed') : t('bouquets.created'));
      onClose();
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      if (isApiError(e) && e.field === 'bouquet_name') form.setFieldError('bouquet_name', e.message);
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      title={bouquet ? t('bouquets.renameTitle', { id: bouquet.id }) : t('bouquets.create')}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('bouquets.name')} required maxLength={100} data-autofocus data-testid="bouquet-name" {...form.getInputProps('bouquet_name')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="bouquet-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
