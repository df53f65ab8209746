import { Alert, Anchor, Badge, Button, Checkbox, Group, Input, Paper, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconHistory } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { notifySuccess } from '../../api/notify';
import { showFormError } from '../../lib/formErrors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { type Language, type ReminderSettings, STAGES, type Stage, usePreview, useReminderSettings, useSaveReminderSettings } from './api';
import { ChannelTest } from './ChannelTest';
import { WhatsAppStatus } from './WhatsAppStatus';
import { unknownVariable } from './template';
import './texts';

/** /reminders — turn expiry reminders on: channels (with a test), stages, sending hours, the texts with a preview. */
export function RemindersPage() {
  const { t } = useTranslation();
  const settings = useReminderSettings();
  return (
    <Stack gap="sm">
      <PageHeader
        title={t('reminders.title')}
        actions={
          <Button component={Link} to="/reminders/history" variant="light" leftSection={<IconHistory size={18} />} data-testid="reminders-history-link">
            {t('reminders.historyLink')}
          </Button>
        }
      />
      <Text size="sm" c="dimmed">
        {t('reminders.help')}
      </Text>
      {settings.isError && <LoadErrorAlert onRetry={() => settings.refetch()} />}
      {settings.data && <SettingsForm key={JSON.stringify(settings.data)} saved={settings.data} />}
    </Stack>
  );
}

interface Values {
  enabled: boolean;
  base_url: string;
  instance: string;
  api_key: string;
  email_enabled: boolean;
  stages: string[];
  quiet_from: string;
  quiet_to: string;
  language: Language;
  templates: ReminderSettings['templates'];
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The answer's paths of the channel inputs, which the form keeps flat. */
const CHANNEL_FIELDS = {
  'channels.whatsapp.base_url': 'base_url',
  'channels.whatsapp.instance': 'instance',
  'channels.whatsapp.api_key': 'api_key',
  'channels.email.enabled': 'email_enabled',
  'quiet_hours.from': 'quiet_from',
  'quiet_hours.to': 'quiet_to',
};

function SettingsForm({ saved }: { saved: ReminderSettings }) {
  const { t } = useTranslation();
  const save = useSaveReminderSettings();
  const preview = usePreview();
  const [stage, setStage] = useState<Stage>(saved.stages[0] ?? 'before_3');
  const wa = saved.channels.whatsapp;
  const form = useForm<Values>({
    initialValues: {
      enabled: saved.enabled,
      base_url: wa.base_url ?? '',
      instance: wa.instance ?? '',
      api_key: '',
      email_enabled: saved.channels.email.enabled,
      stages: saved.stages,
      quiet_from: saved.quiet_hours.from,
      quiet_to: saved.quiet_hours.to,
      language: saved.language,
      templates: saved.templates,
    },
    validate: (v) => {
      const errors: Record<string, string> = {};
      if (!HHMM.test(v.quiet_from)) errors.quiet_from = t('common.required');
      if (!HHMM.test(v.quiet_to)) errors.quiet_to = t('common.required');
      for (const s of STAGES)
        for (const lang of ['pt', 'en'] as const) {
          const name = unknownVariable(v.templates[s][lang]);
          if (name !== undefined) errors[`templates.${s}.${lang}`] = t('reminders.unknownVariable', { name: `{${name}}` });
        }
      return errors;
    },
  });
  const v = form.values;
  const path = `templates.${stage}.${v.language}` as const;
  const text = v.templates[stage][v.language];
  const inherited = saved.inherited.templates[stage][v.language];

  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({
        enabled: values.enabled,
        stages: STAGES.filter((s) => values.stages.includes(s)),
        language: values.language,
        quiet_hours: { from: values.quiet_from, to: values.quiet_to },
        templates: values.templates,
        channels: {
          whatsapp: { base_url: values.base_url.trim() || null, instance: values.instance.trim() || null, ...(values.api_key.trim() ? { api_key: values.api_key.trim() } : {}) },
          email: { enabled: values.email_enabled },
        },
      });
      notifySuccess(t('reminders.saved'));
    } catch (e) {
      // a template's error is under the stage's text: show that stage
      if (isApiError(e) && e.code === 'TEMPLATE_UNKNOWN_VARIABLE' && e.field) setStage(e.field.split('.')[1] as Stage);
      showFormError(form, e, { fields: CHANNEL_FIELDS });
    }
  });

  const ready = (on: boolean) => (
    <Badge size="sm" variant="light" color={on ? 'green' : 'gray'}>
      {on ? t('reminders.ready') : t('reminders.notReady')}
    </Badge>
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
          <Switch size="md" label={t('reminders.enabled')} description={t('reminders.enabledHint')} data-testid="reminders-enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        </Paper>

        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="sm">
            <WhatsAppStatus configured={wa.ready} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('reminders.baseUrl')} description={t('reminders.baseUrlHint')} inputMode="url" maxLength={300} data-testid="reminders-base-url" {...form.getInputProps('base_url')} />
              <TextInput label={t('reminders.instance')} maxLength={100} data-testid="reminders-instance" {...form.getInputProps('instance')} />
            </SimpleGrid>
            <PasswordInput
              label={t('reminders.apiKey')}
              description={wa.api_key_set ? t('reminders.apiKeySet') : t('reminders.apiKeyNone')}
              autoComplete="off"
              maxLength={200}
              data-testid="reminders-api-key"
              {...form.getInputProps('api_key')}
            />
            <ChannelTest channel="whatsapp" ready={wa.ready} />
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={2} size="h5">
                {t('reminders.emailTitle')}
              </Title>
              {ready(saved.channels.email.ready)}
            </Group>
            {!saved.channels.email.smtp_configured && (
              <Alert color="gray" variant="light" data-testid="reminders-smtp-missing">
                {t('reminders.emailNotConfigured')}
              </Alert>
            )}
            <Switch label={t('reminders.emailEnabled')} disabled={!saved.channels.email.smtp_configured} data-testid="reminders-email-enabled" {...form.getInputProps('email_enabled', { type: 'checkbox' })} />
            {saved.channels.email.smtp_configured && <ChannelTest channel="email" ready={saved.channels.email.ready} />}
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="sm">
            <Title order={2} size="h5">
              {t('reminders.scheduleTitle')}
            </Title>
            <div>
              <Text size="sm" fw={500}>
                {t('reminders.stages')}
              </Text>
              <Text size="xs" c="dimmed" mb={6}>
                {t('reminders.stagesHint')}
              </Text>
              <Checkbox.Group value={v.stages} onChange={(value) => form.setFieldValue('stages', value)}>
                <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
                  {STAGES.map((s) => (
                    <Checkbox key={s} value={s} label={t(`reminders.stageNames.${s}`)} data-testid={`reminders-stage-${s}`} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            </div>
            <SimpleGrid cols={2}>
              <TextInput type="time" label={t('reminders.quietFrom')} data-testid="reminders-quiet-from" {...form.getInputProps('quiet_from')} />
              <TextInput type="time" label={t('reminders.quietTo')} data-testid="reminders-quiet-to" {...form.getInputProps('quiet_to')} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {t('reminders.quietHint')}
            </Text>
            <div>
              <Text size="sm" fw={500} mb={4}>
                {t('reminders.language')}
              </Text>
              <SegmentedControl
                value={v.language}
                onChange={(value) => form.setFieldValue('language', value as Language)}
                data={(['pt', 'en'] as const).map((l) => ({ value: l, label: t(`reminders.languages.${l}`) }))}
                data-testid="reminders-language"
              />
            </div>
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="sm">
            <Title order={2} size="h5">
              {t('reminders.templatesTitle')}
            </Title>
            <Select
              label={t('reminders.stage')}
              value={stage}
              onChange={(value) => {
                if (value) setStage(value as Stage);
                preview.reset();
              }}
              allowDeselect={false}
              data={STAGES.map((s) => ({ value: s, label: t(`reminders.stageNames.${s}`) }))}
              data-testid="reminders-template-stage"
            />
            {/* a plain textarea in Mantine's input (the autosizing Textarea would join every page's shared
                chunk); `multiline` lets it take its rows' height instead of an input's one line */}
            <Input.Wrapper label={t('reminders.template')} description={t('reminders.templateHint')} error={form.errors[path]}>
              <Input component="textarea" multiline rows={6} maxLength={1000} data-testid="reminders-template" {...form.getInputProps(path)} />
            </Input.Wrapper>
            <Group gap="xs" justify="space-between">
              {text === inherited ? (
                <Text size="xs" c="dimmed">
                  {t('reminders.inheritedNote')}
                </Text>
              ) : (
                <Anchor component="button" type="button" size="xs" onClick={() => form.setFieldValue(path, inherited)} data-testid="reminders-restore">
                  {t('reminders.restoreDefault')}
                </Anchor>
              )}
              <Button
                variant="default"
                size="xs"
                loading={preview.isPending}
                disabled={unknownVariable(text) !== undefined}
                onClick={() => void preview.mutateAsync({ stage, language: v.language, text })}
                data-testid="reminders-preview"
              >
                {t('reminders.preview')}
              </Button>
            </Group>
            {preview.data && (
              <Paper bg="var(--mantine-color-default-hover)" p="sm" radius="md" data-testid="reminders-preview-text">
                <Text size="xs" c="dimmed" mb={4}>
                  {preview.data.line ? t('reminders.previewWith', { username: preview.data.line.username }) : t('reminders.previewSample')}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {preview.data.text}
                </Text>
              </Paper>
            )}
          </Stack>
        </Paper>

        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting} data-testid="reminders-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
