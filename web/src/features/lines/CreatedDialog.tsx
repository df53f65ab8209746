import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { toast } from '../../api/notify';
import { IconCircleCheck, IconCopy, IconList } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { formatDateTime } from '../../lib/format';
import { copyText, CopyIconButton } from './ui';

/** What a customer needs after a creation: the login (a line's username, a P2P account's e-mail), password, expiry. */
export interface CreatedCredentials {
  username: string;
  password: string;
  exp_date: number;
}

/**
 * A create page's state around the dialog: what was just created, and the form's key: "create
 * another" closes the dialog and starts an empty form.
 */
export function useCreatedDialog<T>() {
  const [created, setCreated] = useState<T | null>(null);
  const [formKey, setFormKey] = useState(0);
  return {
    created,
    formKey,
    show: (record: T) => setCreated(record),
    close: () => setCreated(null),
    another: () => {
      setCreated(null);
      setFormKey((k) => k + 1);
    },
  };
}

interface Props {
  line: CreatedCredentials | null;
  title: string;
  onClose: () => void;
  onAnother: () => void;
  /** The list the "to the list" button opens. */
  listTo?: '/users' | '/p2p_users';
}

/** After a creation: the generated or typed username and password, each with a copy button. */
export function CreatedDialog({ line, title, onClose, onAnother, listTo = '/users' }: Props) {
  const { t } = useTranslation();
  const copyBoth = async () => {
    if (!line) return;
    const ok = await copyText(`${t('users.username')}: ${line.username}\n${t('users.password')}: ${line.password}`);
    toast({ color: ok ? 'green' : 'red', message: ok ? t('users.created.copied') : t('users.links.copyError') });
  };
  return (
    <Modal opened={line !== null} onClose={onClose} title={title} centered data-testid="user-created-dialog">
      {line && (
        <Stack gap="sm">
          <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />}>
            {t('users.created.hint')}
          </Alert>
          <TextInput
            label={t('users.username')}
            readOnly
            value={line.username}
            rightSection={<CopyIconButton value={line.username} label={t('users.created.copy')} successText={t('users.created.copied')} testId="created-username-copy" />}
            data-testid="created-username"
          />
          <TextInput
            label={t('users.password')}
            readOnly
            value={line.password}
            rightSection={<CopyIconButton value={line.password} label={t('users.created.copy')} successText={t('users.created.copied')} testId="created-password-copy" />}
            data-testid="created-password"
          />
          <Text size="sm">
            {t('users.expiresAt')}: <b>{formatDateTime(line.exp_date)}</b>
          </Text>
          <Group justify="space-between" gap="xs">
            <Button variant="subtle" leftSection={<IconCopy size={16} />} onClick={() => void copyBoth()} data-testid="created-copy-both">
              {t('users.created.copyBoth')}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={onAnother} data-testid="created-another">
                {t('users.created.another')}
              </Button>
              <Button component={Link} to={listTo} leftSection={<IconList size={16} />} data-testid="created-to-list">
                {t('users.created.toList')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
