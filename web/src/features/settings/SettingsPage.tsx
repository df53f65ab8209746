import { Badge, Box, Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { errorText } from '../../lib/errors';
import { toast } from '../../api/notify';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useComplements } from '../../api/complements';
import { isApiError } from '../../api/errors';
import { PageHeader } from '../../components/PageHeader';
import i18n from '../../i18n';
import { useAdminSettings, useEdgeServers, useSaveSettings } from './api';
import type { SettingsUpdate } from '../../api/types';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { NumberField } from '../../components/NumberField';

/** Integer settings and their ranges (the server's settings/rules.ts). */
export const INT_SETTINGS = {
  master_min_credit_create: [0, 1_000_000],
  user_limit_screen: [1, 10],
  trial_limit_per_day: [0, 1000],
  lazy_player_monthly_credits: [0, 1000],
} as const;
const PACKAGE_SETTINGS = ['migration_package_adult', 'migration_package_no_adult'] as const;
const TEXT_SETTINGS = ['main_domain', 'chat_group_url', 'manual_url', 'p2p_email_domain'] as const;
/** A registered edge's id, or '' (stream URLs follow the links' domain). */
const EDGE_SETTING = 'default_edge';
type Key = keyof typeof INT_SETTINGS | (typeof PACKAGE_SETTINGS)[number] | (typeof TEXT_SETTINGS)[number] | typeof EDGE_SETTING;
type Values = Record<Key, string | number>;

const URL_RE = /^https?:\/\/\S+$/;
const DOMAIN_RE = /^(https?:\/\/)?[A-Za-z0-9.-]+(:[0-9]{1,5})?\/?$/;
const EMAIL_DOMAIN_RE = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/** Validation of one setting (the same rules as the server), or null. */
export function settingError(key: Key, raw: string | number): string | null {
  const v = String(raw).trim();
  if (key in INT_SETTINGS) {
    const [min, max] = INT_SETTINGS[key as keyof typeof INT_SETTINGS];
    const n = Number(v);
    return v !== '' && Number.isInteger(n) && n >= min && n <= max ? null : i18n.t('settings.intRange', { min, max });
  }
  if ((PACKAGE_SETTINGS as readonly string[]).includes(key)) return v ? null : i18n.t('settings.packageRequired');
  if (!v || key === EDGE_SETTING) return null;
  if (key === 'chat_group_url' || key === 'manual_url') return URL_RE.test(v) && v.length <= 500 ? null : i18n.t('settings.urlInvalid');
  if (key === 'main_domain') return DOMAIN_RE.test(v) && v.length <= 200 ? null : i18n.t('settings.domainInvalid');
  return EMAIL_DOMAIN_RE.test(v) && v.length <= 100 ? null : i18n.t('settings.emailDomainInvalid');
}

const ALL: Key[] = [...(Object.keys(INT_SETTINGS) as Key[]), ...PACKAGE_SETTINGS, ...TEXT_SETTINGS, EDGE_SETTING];

/** /settings (admin): the business settings, validated, and which integrations the server is configured for. */
export function SettingsPage() {
  const { t } = useTranslation();
  const query = useAdminSettings();
  const save = useSaveSettings();
  const complements = useComplements();
  const packages = (complements.data?.packages ?? []).filter((p) => p.is_trial !== 1).map((p) => ({ value: String(p.id), label: `${p.package_name} (#${p.id})` }));
  const servers = useEdgeServers();
  const edges = [{ value: '', label: t('settings.defaultEdgeNone') }, ...(servers.data ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (${s.url})` }))];
  const form = useForm<Values>({
    initialValues: Object.fromEntries(ALL.map((k) => [k, ''])) as Values,
    validate: Object.fromEntries(ALL.map((k) => [k, (v: string | number) => settingError(k, v)])) as never,
  });
  const settings = query.data?.settings;

  // biome-ignore lint/correctness/useExhaustiveDependencies: load the saved values once they arrive (and after a save).
  useEffect(() => {
    if (settings) {
      const values = Object.fromEntries(ALL.map((k) => [k, settings[k] ?? ''])) as Values;
      form.setValues(values);
      form.resetDirty(values);
    }
  }, [settings]);

  const submit = form.onSubmit(async (v) => {
    // only what changed: a migration package id seeded for a package that does not exist yet must not block the rest
    const body = Object.fromEntries(ALL.filter((k) => form.isDirty(k)).map((k) => [k, String(v[k]).trim()])) as SettingsUpdate;
    try {
      await save.mutateAsync(body);
      toast({ color: 'green', message: t('settings.saved') });
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      if (isApiError(e) && e.field && (ALL as string[]).includes(e.field)) form.setFieldError(e.field, errorText(e));
    }
  });

  const hint = (key: Key) => (i18n.exists(`settings.hints.${key}`) ? t(`settings.hints.${key}`) : undefined);
  const num = (key: keyof typeof INT_SETTINGS) => (
    <NumberField key={key} label={t(`settings.fields.${key}`)} description={hint(key)} min={INT_SETTINGS[key][0]} max={INT_SETTINGS[key][1]} allowDecimal={false} allowNegative={false} {...form.getInputProps(key)} data-testid={`setting-${key}`} />
  );
  const text = (key: (typeof TEXT_SETTINGS)[number], placeholder: string) => (
    <TextInput key={key} label={t(`settings.fields.${key}`)} description={hint(key)} placeholder={placeholder} {...form.getInputProps(key)} data-testid={`setting-${key}`} />
  );
  const integrations = query.data?.integrations;

  return (
    <Box maw={900}>
      <PageHeader title={t('settings.title')} />
      {query.isError ? (
        <LoadErrorAlert onRetry={() => query.refetch()} />
      ) : !query.data ? (
        <Skeleton h={400} />
      ) : (
        <Stack gap="lg">
          <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
            <form onSubmit={submit} noValidate>
              <Stack gap="md">
                <Title order={2} size="h5">
                  {t('settings.business')}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  {num('master_min_credit_create')}
                  {num('user_limit_screen')}
                  {num('trial_limit_per_day')}
                  {num('lazy_player_monthly_credits')}
                  {PACKAGE_SETTINGS.map((key) => (
                    <Select key={key} label={t(`settings.fields.${key}`)} data={packages} searchable allowDeselect={false} {...form.getInputProps(key)} value={String(form.values[key]) || null} data-testid={`setting-${key}`} />
                  ))}
                </SimpleGrid>
                <Title order={2} size="h5">
                  {t('settings.links')}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  {text('main_domain', 'https://tv.example.com')}
                  <Select
                    label={t(`settings.fields.${EDGE_SETTING}`)}
                    description={hint(EDGE_SETTING)}
                    data={edges}
                    allowDeselect={false}
                    {...form.getInputProps(EDGE_SETTING)}
                    value={String(form.values[EDGE_SETTING])}
                    data-testid={`setting-${EDGE_SETTING}`}
                  />
                  {text('p2p_email_domain', 'example.com')}
                  {text('chat_group_url', 'https://chat.whatsapp.com/...')}
                  {text('manual_url', 'https://manual.example.com')}
                </SimpleGrid>
                <Group justify="flex-end">
                  <Button type="submit" leftSection={<IconDeviceFloppy size={18} />} loading={form.submitting} disabled={!form.isDirty()} data-testid="settings-save">
                    {t('common.save')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Paper>
          <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} data-testid="settings-integrations">
            <Title order={2} size="h5" mb="xs">
              {t('settings.integrations.title')}
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {t('settings.integrations.hint')}
            </Text>
            <Stack gap="xs">
              {(['tmdb', 'lazy_player', 'p2p', 'old_p2p_panel', 'public_url'] as const).map((k) => {
                const on = k === 'public_url' ? !!integrations?.public_url : !!integrations?.[k];
                return (
                  <Group key={k} justify="space-between" gap="xs" wrap="wrap" data-testid={`integration-${k}`}>
                    <Text size="sm">{t(`settings.integrations.${k}`)}</Text>
                    <Badge variant="light" color={on ? 'green' : 'gray'}>
                      {on ? t('settings.integrations.on') : t('settings.integrations.off')}
                    </Badge>
                    {k === 'public_url' && integrations?.public_url && (
                      <Text size="xs" c="dimmed" w="100%" style={{ overflowWrap: 'anywhere' }}>
                        {integrations.public_url}
                      </Text>
                    )}
                  </Group>
                );
              })}
            </Stack>
          </Paper>
        </Stack>
      )}
    </Box>
  );
}
