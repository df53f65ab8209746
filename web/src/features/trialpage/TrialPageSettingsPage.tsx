import { Alert, Button, Code, CopyButton, Group, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useComplements } from '../../api/complements';
import { notifySuccess } from '../../api/notify';
import type { Answer } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { showFormError } from '../../lib/formErrors';
import { useSaveTrialPageSettings, useTrialPageSettings } from './api';
import './texts';

type Settings = Answer<'/api/trial-page/settings', 'get'>;

const SLUG = /^[a-z0-9-]{3,40}$/;

/** /trial-page — the account's public trial page (/teste/<slug>): on/off, address, trial package, daily limit, text. */
export function TrialPageSettingsPage() {
  const { t } = useTranslation();
  const settings = useTrialPageSettings();
  return (
    <Stack gap="sm">
      <PageHeader title={t('trialPage.title')} />
      <Text size="sm" c="dimmed">
        {t('trialPage.help')}
      </Text>
      {settings.data && <SettingsForm key={JSON.stringify(settings.data)} saved={settings.data} />}
    </Stack>
  );
}

interface Values {
  enabled: boolean;
  slug: string;
  package_id: string | null;
  per_day: string;
  message: string;
}

function SettingsForm({ saved }: { saved: Settings }) {
  const { t } = useTranslation();
  const complements = useComplements();
  const save = useSaveTrialPageSettings();
  // the packages the panel lets an account create trials from: trial and not official
  const packages = (complements.data?.packages ?? []).filter((p) => p.is_trial === 1 && p.is_official === 0);
  const form = useForm<Values>({
    initialValues: { enabled: saved.enabled, slug: saved.slug ?? '', package_id: saved.package_id === null ? null : String(saved.package_id), per_day: String(saved.per_day), message: saved.message ?? '' },
    validate: {
      slug: (v) => (v.trim() !== '' && !SLUG.test(v.trim()) ? t('trialPage.slugInvalid') : null),
      per_day: (v) => (/^\d{1,4}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 1000 ? null : t('trialPage.perDayInvalid')),
    },
  });
  const submit = form.onSubmit(async (v) => {
    try {
      await save.mutateAsync({
        enabled: v.enabled,
        slug: v.slug.trim() || null,
        package_id: v.package_id ? Number(v.package_id) : null,
        per_day: Number(v.per_day),
        message: v.message.trim() || null,
      });
      notifySuccess(t('trialPage.saved'));
    } catch (e) {
      showFormError(form, e);
    }
  });
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {!saved.whatsapp_ready && (
            <Alert color="orange" variant="light" data-testid="trialpage-no-gateway">
              {t('trialPage.noGateway')}{' '}
              <Link to="/reminders">{t('trialPage.gatewayLink')}</Link>
            </Alert>
          )}
          <Switch label={t('trialPage.enabled')} description={t('trialPage.enabledHint')} data-testid="trialpage-enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('trialPage.slug')} description={t('trialPage.slugHint')} leftSection={<Text size="xs" c="dimmed">/teste/</Text>} leftSectionWidth={56} autoComplete="off" data-testid="trialpage-slug" {...form.getInputProps('slug')} />
            <Select
              label={t('trialPage.package')}
              description={t('trialPage.packageHint')}
              placeholder={t('trialPage.packagePlaceholder')}
              data={packages.map((p) => ({ value: String(p.id), label: p.package_name }))}
              clearable
              nothingFoundMessage={t('trialPage.noTrialPackages')}
              data-testid="trialpage-package"
              {...form.getInputProps('package_id')}
            />
            <TextInput label={t('trialPage.perDay')} description={t('trialPage.perDayHint')} inputMode="numeric" data-testid="trialpage-per-day" {...form.getInputProps('per_day')} />
          </SimpleGrid>
          <Textarea label={t('trialPage.message')} description={t('trialPage.messageHint')} autosize minRows={2} maxRows={6} maxLength={500} data-testid="trialpage-message" {...form.getInputProps('message')} />
          {saved.public_url && (
            <div>
              <Text size="sm" fw={500}>
                {t('trialPage.publicUrl')}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Code style={{ overflowWrap: 'anywhere', flex: 1 }} data-testid="trialpage-public-url">
                  {saved.public_url}
                </Code>
                <CopyButton value={saved.public_url}>
                  {({ copied, copy }) => (
                    <Button size="compact-xs" variant="light" onClick={copy} data-testid="trialpage-copy">
                      {copied ? t('trialPage.copied') : t('trialPage.copy')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              {!saved.enabled && (
                <Text size="xs" c="dimmed" mt={4}>
                  {t('trialPage.offHint')}
                </Text>
              )}
            </div>
          )}
          <Text size="xs" c="dimmed">
            {t('trialPage.limits')}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting} data-testid="trialpage-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
