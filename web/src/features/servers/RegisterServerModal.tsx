import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { errorText } from '../../lib/errors';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import type { EdgeServerCreated } from '../../api/types';
import { useRegisterServer } from './api';
import { ServerKey } from './ServerKey';
import './texts';

const URL_RE = /^https?:\/\/[^\s/]+/i;

/** Registers a streaming edge (name and public URL), then shows its key once; closing forgets the key. */
export function RegisterServerModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const register = useRegisterServer();
  const [created, setCreated] = useState<EdgeServerCreated | null>(null);
  const form = useForm({
    initialValues: { name: '', url: '' },
    validate: {
      name: (v) => (v.trim() ? null : t('common.required')),
      url: (v) => (URL_RE.test(v.trim()) ? null : t('servers.urlInvalid')),
    },
  });

  const close = () => {
    setCreated(null);
    form.reset();
    register.reset();
    onClose();
  };

  const submit = form.onSubmit(async ({ name, url }) => {
    try {
      setCreated(await register.mutateAsync({ name: name.trim(), url: url.trim() }));
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      const message = errorText(e);
      form.setFieldError(isApiError(e) && e.field === 'name' ? 'name' : 'url', message);
    }
  });

  return (
    <Modal opened={opened} onClose={close} centered size="lg" closeOnClickOutside={!created} title={created ? t('servers.key.title') : t('servers.register')}>
      {created ? (
        <ServerKey server={created} onDone={close} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label={t('servers.name')} required maxLength={100} data-autofocus data-testid="server-name" {...form.getInputProps('name')} />
            <TextInput
              label={t('servers.url')}
              description={t('servers.urlHelp')}
              placeholder="https://edge1.exemplo.com"
              required
              maxLength={255}
              data-testid="server-url"
              {...form.getInputProps('url')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={register.isPending} data-testid="server-save">
                {t('servers.registerSubmit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
