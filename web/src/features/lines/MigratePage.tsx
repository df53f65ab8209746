import { Alert, Button, Card, Group, Loader, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowsExchange, IconInfoCircle } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useComplements } from '../../api/complements';
import { isApiError } from '../../api/errors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { ErrorAlert } from '../../components/basic/ErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { YesNoBadge } from '../../components/YesNoBadge';
import i18n from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { useMigrateLine, useMigrationLookup } from './api';
import type { MigrationSourceLine } from '../../api/types';

/** docs/rules.md: the URL is looked up from 5 characters on. */
export const MIN_URL_LENGTH = 5;
const DEBOUNCE_MS = 600;
const DAY = 86_400;
const MIN_DAYS_LEFT = 5;
const MAX_DAYS = 30;

/** Why the looked-up line cannot be migrated (the server refuses the same), or null. */
export function migrationBlocker(line: Pick<MigrationSourceLine, 'is_trial' | 'exp_date'>, nowSec: number): 'trial' | 'tooShort' | null {
  if (line.is_trial) return 'trial';
  if (line.exp_date !== null && line.exp_date - nowSec < MIN_DAYS_LEFT * DAY) return 'tooShort';
  return null;
}

/** Whether the expiry will be cut to 30 days from now. */
export const willCap = (line: Pick<MigrationSourceLine, 'exp_date'>, nowSec: number) => line.exp_date === null || line.exp_date > nowSec + MAX_DAYS * DAY;

const LOOKUP_CODES = ['URL_NOT_ORIGINAL', 'URL_NOT_ALLOWED', 'SOURCE_REFUSED'];
const MIGRATE_CODES = ['MIGRATION_TRIAL', 'MIGRATION_TOO_SHORT', 'MIGRATION_NOT_LOOKED_UP', 'USERNAME_TAKEN', 'INSUFFICIENT_CREDITS', 'VALIDATION'];

/** The fixed Portuguese messages of the migration. */
function lookupErrorText(e: unknown): string {
  if (isApiError(e) && e.status === 0) return i18n.t('migrate.errors.communication');
  if (isApiError(e) && LOOKUP_CODES.includes(e.code)) return i18n.t(`migrate.errors.${e.code}`);
  return i18n.t('migrate.errors.fetch');
}

function migrateErrorText(e: unknown): string {
  if (!isApiError(e)) return i18n.t('migrate.errors.unknown');
  if (e.status === 0) return i18n.t('migrate.errors.communication');
  const detail = MIGRATE_CODES.includes(e.code) ? i18n.t(`migrate.errors.${e.code}`) : e.message;
  return detail ? i18n.t('migrate.errors.server', { error: detail }) : i18n.t('migrate.errors.unknown');
}

/** /users/migrate — a line from another provider's playlist URL, with one of the two migration packages. */
export function MigratePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const complements = useComplements();
  const form = useForm({ initialValues: { url: '', kind: null as 'adult' | 'no_adult' | null } });
  const { kind } = form.values;
  const [debounced] = useDebouncedValue(form.values.url.trim(), DEBOUNCE_MS);
  const migrate = useMigrateLine(); // a retry of the same migration reuses its key: one charge
  const error = migrate.isError ? migrateErrorText(migrate.error) : null;
  const lookup = useMigrationLookup(debounced, debounced.length >= MIN_URL_LENGTH);
  const now = Math.floor(Date.now() / 1000);
  const found = debounced.length >= MIN_URL_LENGTH ? lookup.data : undefined;
  const blocker = found ? migrationBlocker(found, now) : null;
  const settings = complements.data?.settings ?? {};
  const packageIds = { adult: Number(settings.migration_package_adult), no_adult: Number(settings.migration_package_no_adult) };
  const packageName = (id: number) => complements.data?.packages.find((p) => p.id === id)?.package_name;

  const submit = async () => {
    if (!found || blocker || !kind) return;
    const res = await migrate.mutateAsync({ username: found.username, password: found.password, exp_date: found.exp_date ?? now, package_id: packageIds[kind] });
    notifySuccess(t('migrate.success'));
    if (res.capped) notifySuccess(t('migrate.cappedDone', { date: formatDateTime(res.exp_date) }));
    await navigate({ to: '/users' });
  };

  return (
    <Stack gap="md" maw={720}>
      <PageHeader title={t('migrate.title')} />
      <TextInput
        label={t('migrate.url')}
        description={t('migrate.urlHint', { count: MIN_URL_LENGTH })}
        placeholder="http://provedor.example:8080/get.php?username=...&password=..."
        {...form.getInputProps('url')}
        onChange={(e) => {
          form.setFieldValue('url', e.currentTarget.value);
          if (migrate.isError) migrate.reset(); // the error stays beside the button until the URL changes
        }}
        rightSection={lookup.isFetching ? <Loader size="xs" /> : null}
        inputMode="url"
        autoComplete="off"
        data-autofocus
        data-testid="migrate-url"
      />
      {lookup.isFetching && (
        <Text size="sm" c="dimmed" data-testid="migrate-looking">
          {t('migrate.looking')}
        </Text>
      )}
      {lookup.isError && debounced.length >= MIN_URL_LENGTH && !lookup.isFetching && (
        <LoadErrorAlert onRetry={lookup.refetch} title={lookupErrorText(lookup.error)} testId="migrate-lookup-error" />
      )}
      {found && (
        <Card withBorder radius="md" data-testid="migrate-found">
          <Text fw={600} mb="xs">
            {t('migrate.found')}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
            <Field label={t('migrate.username')} value={found.username} testId="migrate-found-username" />
            <Field label={t('migrate.password')} value={found.password} testId="migrate-found-password" />
            <Field label={t('migrate.expiry')} value={found.exp_date === null ? t('migrate.noExpiry') : formatDateTime(found.exp_date)} testId="migrate-found-exp" />
            <Field label={t('migrate.created')} value={found.created_at === null ? '—' : formatDateTime(found.created_at)} testId="migrate-found-created" />
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                {t('migrate.trial')}
              </Text>
              <YesNoBadge value={found.is_trial} />
            </Stack>
          </SimpleGrid>
        </Card>
      )}
      {found && blocker && (
        <ErrorAlert testId="migrate-blocked">{t(blocker === 'trial' ? 'migrate.errors.MIGRATION_TRIAL' : 'migrate.errors.MIGRATION_TOO_SHORT')}</ErrorAlert>
      )}
      {found && !blocker && willCap(found, now) && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} data-testid="migrate-cap">
          {t('migrate.capNotice', { days: MAX_DAYS })}
        </Alert>
      )}
      {found && !blocker && (
        <Select
          label={t('migrate.package')}
          placeholder={t('migrate.packagePlaceholder')}
          withAsterisk
          allowDeselect={false}
          data={(['no_adult', 'adult'] as const).map((k) => ({ value: k, label: `${t(k === 'adult' ? 'migrate.adult' : 'migrate.noAdult')}${packageName(packageIds[k]) ? ` — ${packageName(packageIds[k])}` : ''}` }))}
          {...form.getInputProps('kind')}
          comboboxProps={{ withinPortal: true }}
          data-testid="migrate-package"
        />
      )}
      {error && (
        <ErrorAlert testId="migrate-error">{error}</ErrorAlert>
      )}
      <Group>
        <Button leftSection={<IconArrowsExchange size={18} />} disabled={!found || !!blocker || !kind} loading={migrate.isPending} onClick={() => void submit()} data-testid="migrate-submit">
          {t('migrate.submit')}
        </Button>
      </Group>
    </Stack>
  );
}

function Field({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}
