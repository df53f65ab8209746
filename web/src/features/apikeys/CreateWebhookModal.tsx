import { Button, Checkbox, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookCreated } from '../../api/types';
import { SecretShownOnce } from '../../components/SecretShownOnce';
import { showFormError } from '../../lib/formErrors';
import { type WebhookEvent, useCreateWebhook } from './webhooksApi';
import { textKey } from './textKey';
import './texts';
import { NumberField } from '../../components/NumberField';

const EVENTS: WebhookEvent[] = ['line.created', 'line.renewed', 'line.blocked', 'line.expiring', 'line.expired', 'credits.low', 'payment.approved', 'payment.failed', 'credits.purchase_waiting', 'credits.purchased'];

/** Registers a webhook endpoint (address, events, threshold, credentials), then shows its secret once. */
export function CreateWebhookModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateWebhook();
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const form = useForm({
    initialValues: { url: '', events: ['line.created', 'line.renewed'] as string[], threshold: 10 as number | string, include_credentials: false },
    validate: {
      url: (v) => (/^https?:\/\/\S+$/i.test(v.trim()) ? null : t('common.required')),
      events: (v) => (v.length ? null : t('apiKeys.webhooks.eventsRequired')),
    },
  });
  const w = (key: string) => t(`apiKeys.webhooks.secret.${key}`);

  const close = () => {
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };

  const submit = form.onSubmit(async (v) => {
    const events = EVENTS.filter((e) => v.events.includes(e));
    try {
      setCreated(
        await create.mutateAsync({
          url: v.url.trim(),
          events,
          include_credentials: v.include_credentials,
          credits_low_threshold: events.includes('credits.low') ? Number(v.threshold) : null,
        }),
      );
    } catch (e) {
      showFormError(form, e, { fields: { credits_low_threshold: 'threshold' }, otherwise: 'url' });
    }
  });

  return (
    <Modal opened={opened} onClose={close} centered size="lg" closeOnClickOutside={!created} title={created ? w('title') : t('apiKeys.webhooks.create')}>
      {created ? (
        <SecretShownOnce
          secret={created.secret}
          texts={{ warningTitle: w('warningTitle'), warning: w('warning'), label: t('apiKeys.webhooks.secret.label', { url: created.url }), howTo: w('howTo'), copy: w('copy'), copied: w('copied'), done: w('done') }}
          testIds={{ panel: 'webhook-secret-panel', secret: 'webhook-secret', copy: 'webhook-secret-copy', done: 'webhook-secret-done' }}
          onDone={close}
        />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label={t('apiKeys.webhooks.url')} placeholder="https://meubot.exemplo.com/painel" required maxLength={500} data-autofocus data-testid="webhook-url" {...form.getInputProps('url')} />
            <Checkbox.Group label={t('apiKeys.webhooks.events')} required {...form.getInputProps('events')}>
              <Stack gap={6} mt={6}>
                {EVENTS.map((e) => (
                  <Checkbox key={e} value={e} label={t(`apiKeys.webhooks.event.${textKey(e)}`)} data-testid={`webhook-event-${e}`} />
                ))}
              </Stack>
            </Checkbox.Group>
            {form.values.events.includes('credits.low') && (
              <NumberField label={t('apiKeys.webhooks.threshold')} min={1} max={1_000_000} allowDecimal={false} data-testid="webhook-threshold" {...form.getInputProps('threshold')} />
            )}
            <Switch label={t('apiKeys.webhooks.includeCredentials')} description={t('apiKeys.webhooks.includeCredentialsHelp')} data-testid="webhook-credentials" {...form.getInputProps('include_credentials', { type: 'checkbox' })} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} data-testid="webhook-save">
                {t('apiKeys.webhooks.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
