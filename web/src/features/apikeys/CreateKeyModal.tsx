import '@mantine/dates/styles.layer.css';
import { Button, Checkbox, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import type { ApiKeyCreated } from '../../api/types';
import { currentLang } from '../../i18n';
import { errorText } from '../../lib/errors';
import { type NewApiKey, useCreateApiKey } from './api';
import { KeyShownOnce } from './KeyShownOnce';
import { textKey } from './textKey';
import './texts';

const SCOPES = ['lines:read', 'lines:write', 'credits:read'] as const;

/** Creates an API key (name, scopes, addresses, expiry), then shows it once; closing forgets it. */
export function CreateKeyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateApiKey();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const form = useForm({
    initialValues: { name: '', scopes: ['lines:read', 'lines:write'] as string[], allowed_ips: '', expires: null as string | null },
    validate: {
      name: (v) => (v.trim() ? null : t('common.required')),
      scopes: (v) => (v.length ? null : t('apiKeys.scopesRequired')),
    },
  });

  const close = () => {
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };

  const submit = form.onSubmit(async (v) => {
    const body: NewApiKey = {
      name: v.name.trim(),
      scopes: SCOPES.filter((s) => v.scopes.includes(s)),
      allowed_ips: v.allowed_ips.split(/[\s,]+/).filter(Boolean),
      // the end of the chosen day, where the user is
      expires_at: v.expires ? dayjs(v.expires).endOf('day').unix() : null,
    };
    try {
      setCreated(await create.mutateAsync(body));
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      const at = isApiError(e) ? e.field : undefined;
      const field = at === 'allowed_ips' || at === 'scopes' ? at : at === 'expires_at' ? 'expires' : 'name';
      form.setFieldError(field, errorText(e));
    }
  });

  return (
    <Modal opened={opened} onClose={close} centered size="lg" closeOnClickOutside={!created} title={created ? t('apiKeys.key.title') : t('apiKeys.create')}>
      {created ? (
        <KeyShownOnce created={created} onDone={close} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label={t('apiKeys.name')} placeholder={t('apiKeys.namePlaceholder')} required maxLength={100} data-autofocus data-testid="api-key-name" {...form.getInputProps('name')} />
            <Checkbox.Group label={t('apiKeys.scopes')} required {...form.getInputProps('scopes')}>
              <Stack gap={6} mt={6}>
                {SCOPES.map((s) => (
                  <Checkbox key={s} value={s} label={t(`apiKeys.scope.${textKey(s)}`)} description={t(`apiKeys.scopeHelp.${textKey(s)}`)} data-testid={`api-key-scope-${s}`} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Textarea
              label={t('apiKeys.allowedIps')}
              description={t('apiKeys.allowedIpsHelp')}
              placeholder={'203.0.113.10\n198.51.100.0/24'}
              autosize
              minRows={2}
              maxRows={6}
              data-testid="api-key-ips"
              {...form.getInputProps('allowed_ips')}
            />
            <DatePickerInput
              label={t('apiKeys.expires')}
              description={t('apiKeys.expiresHelp')}
              placeholder={t('apiKeys.never')}
              clearable
              minDate={dayjs().add(1, 'day').format('YYYY-MM-DD')}
              valueFormat={currentLang() === 'pt-BR' ? 'DD/MM/YYYY' : 'MM/DD/YYYY'}
              data-testid="api-key-expires"
              {...form.getInputProps('expires')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} data-testid="api-key-save">
                {t('apiKeys.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
