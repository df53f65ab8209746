import { Alert, Anchor, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { notifySuccess } from '../../api/notify';
import { IconCalendarPlus, IconLink, IconRefresh, IconScissors, IconScreenShare } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useChangeScreens, useExtendLine, useLineLinks, useRenewLine, useShortenLink } from './api';
import { LINK_TYPES, paidPackages, screenLimit, screensWith } from './packages';
import { useComplements } from '../../api/complements';
import { useProfile } from '../../api/profile';
import { formatDateTime } from '../../lib/format';
import { decodeNewsBody } from '../../lib/newsBody';
import { LINK_NEWS_ID, useNews } from '../../api/news';
import { addDuration, DAY_SECONDS, monthsRemaining } from './format';
import { screenChange } from './screenChange';
import { CopyIconButton } from './ui';
import type { Line, Package } from '../../api/types';
import type { OfferedLink } from '../../lib/links';
import { NumberField } from '../../components/NumberField';
import { Stat } from '../../components/Stat';
import { durationText } from './durationText';

interface LineModalProps {
  line: Line;
  opened: boolean;
  onClose: () => void;
}

const nowSec = () => Math.floor(Date.now() / 1000);

/** A line change went through: say so and close. */
function done(message: string, onClose: () => void) {
  notifySuccess(message);
  onClose();
}

/** Extend by 1 to 3 days (free, once per 30 days). */
export function ExtendModal({ line, opened, onClose }: LineModalProps) {
  const { t } = useTranslation();
  const form = useForm<{ days: number | string }>({ initialValues: { days: 1 } });
  const extend = useExtendLine();
  const { days } = form.values;
  const n = typeof days === 'number' ? days : Number(days);
  const valid = Number.isInteger(n) && n >= 1 && n <= 3;
  const newExp = Math.max(line.exp_date, nowSec()) + (valid ? n : 0) * DAY_SECONDS;

  const submit = form.onSubmit(async () => {
    if (!valid) return;
    await extend.mutateAsync({ id: line.id, days: n });
    done(t('users.extend.success', { count: n }), onClose);
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('users.extend.title', { username: line.username })} centered data-testid="extend-modal">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <NumberField
            label={t('users.extend.days')}
            description={t('users.extend.hint')}
            min={1}
            max={3}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="strict"
            {...form.getInputProps('days')}
            error={valid ? undefined : t('users.extend.invalid')}
            data-autofocus
            data-testid="extend-days"
          />
          <Text size="sm">
            {t('users.expiresAt')}: <b>{formatDateTime(line.exp_date)}</b> → <b data-testid="extend-new-exp">{formatDateTime(newExp)}</b>
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={extend.isPending} disabled={!valid} leftSection={<IconCalendarPlus size={18} />} data-testid="extend-submit">
              {t('users.extend.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Screens: current, new, months remaining, signed amount. Adding costs amount x months; removing refunds nothing. */
export function ScreensModal({ line, opened, onClose }: LineModalProps) {
  const { t } = useTranslation();
  const complements = useComplements();
  const limit = screenLimit(complements.data);
  const form = useForm<{ amount: number | string }>({ initialValues: { amount: '' } });
  const { amount } = form.values;
  const screens = useChangeScreens();
  const busy = screens.isPending ? (screens.variables?.kind ?? null) : null;
  const a = typeof amount === 'number' ? amount : Number(amount) || 0;
  const months = monthsRemaining(line.exp_date, nowSec());
  const change = screenChange(line.max_connections, a, limit, months);

  const submit = async (kind: 'add' | 'remove') => {
    await screens.mutateAsync({ id: line.id, amount: a, kind });
    done(t('users.screens.success'), onClose);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('users.screens.title', { username: line.username })} centered data-testid="screens-modal">
      <Stack gap="sm">
        <SimpleGrid cols={3} spacing="xs">
          <Stat label={t('users.screens.current')} value={line.max_connections} testId="screens-current" centered />
          <Stat label={t('users.screens.new')} value={change.valid ? change.next : line.max_connections} testId="screens-new" centered />
          <Stat label={t('users.screens.months')} value={months} testId="screens-months" centered />
        </SimpleGrid>
        <NumberField
          label={t('users.screens.amount')}
          description={t('users.screens.amountHint', { count: limit })}
          allowDecimal={false}
          min={change.min}
          max={change.max}
          disabled={change.stuck}
          {...form.getInputProps('amount')}
          error={a !== 0 && !change.valid ? t('users.screens.outOfRange', { limit }) : undefined}
          data-autofocus
          data-testid="screens-amount"
        />
        {change.stuck && (
          <Text size="sm" c="dimmed" data-testid="screens-at-limit">
            {t('users.screens.atLimit', { count: limit })}
          </Text>
        )}
        <ScreenLimitNote limit={limit} />
        {change.valid && a > 0 && (
          <Text size="sm" data-testid="screens-cost">
            {t('users.screens.cost', { count: change.cost })}
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.close')}
          </Button>
          <Button color="red" variant="light" disabled={a >= 0 || !change.valid || busy !== null} loading={busy === 'remove'} onClick={() => void submit('remove')} data-testid="screens-remove">
            {t('users.screens.remove')}
          </Button>
          <Button disabled={a <= 0 || !change.valid || busy !== null} loading={busy === 'add'} leftSection={<IconScreenShare size={18} />} onClick={() => void submit('add')} data-testid="screens-add">
            {t('users.screens.add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Where the screen limit comes from and who changes it: the admin, in the settings (a link for the admin). */
function ScreenLimitNote({ limit }: { limit: number }) {
  const { t } = useTranslation();
  const isAdmin = useProfile().data?.type === 'admin';
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed" data-testid="screens-limit-note">
        {t('users.screens.limitNote', { count: limit })}
        {!isAdmin && ` ${t('users.screens.limitChangeOthers')}`}
      </Text>
      {/* its own line: a link inside a sentence would need more than its colour to stand out */}
      {isAdmin && (
        <Anchor component={Link} to="/settings" size="sm" data-testid="screens-limit-settings">
          {t('users.screens.limitChangeAdmin')}
        </Anchor>
      )}
    </Stack>
  );
}

/** Cost and period of a renewal by package: screens (package's when >= 2) x official_credits. */
export function renewCost(line: Pick<Line, 'max_connections'>, pkg: Package): number {
  return screensWith(pkg, line.max_connections) * pkg.official_credits;
}

/** The expiry after a renewal by package: its duration added to the later of the expiry and now (calendar months, like the server). */
export function renewedExpiry(line: Pick<Line, 'exp_date'>, pkg: Pick<Package, 'official_duration' | 'official_duration_in'>, now: number): number {
  return addDuration(Math.max(line.exp_date, now), pkg.official_duration, pkg.official_duration_in);
}

/** Renewal by package: a non-trial package must be chosen. */
export function RenewModal({ line, opened, onClose }: LineModalProps) {
  const { t } = useTranslation();
  const complements = useComplements();
  const packages = paidPackages(complements.data);
  // the line's own package until another is picked (the packages may arrive after the modal opens)
  const form = useForm<{ picked: string | null | undefined; touched: boolean }>({ initialValues: { picked: undefined, touched: false } });
  const { picked, touched } = form.values;
  const ownPackage = packages.some((p) => p.id === line.package_id) ? String(line.package_id) : null;
  const packageId = picked === undefined ? ownPackage : picked;
  const renew = useRenewLine();
  const pkg = packages.find((p) => String(p.id) === packageId);

  const submit = form.onSubmit(async () => {
    form.setFieldValue('touched', true);
    if (!pkg) return;
    await renew.mutateAsync({ id: line.id, packageId: pkg.id });
    done(t('users.renew.success'), onClose);
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('users.renew.title', { username: line.username })} centered data-testid="renew-modal">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Select
            label={t('users.package')}
            placeholder={t('users.packagePlaceholder')}
            withAsterisk
            searchable
            data={packages.map((p) => ({ value: String(p.id), label: p.package_name }))}
            value={packageId}
            onChange={(v) => form.setFieldValue('picked', v)}
            error={touched && !pkg ? t('users.renew.packageRequired') : undefined}
            nothingFoundMessage={t('common.noRecords')}
            disabled={complements.isLoading}
            data-testid="renew-package"
          />
          {pkg && (
            <Alert color="blue" variant="light" data-testid="renew-cost">
              {t('users.renew.cost', { count: renewCost(line, pkg) })} · {durationText(t, pkg.official_duration, pkg.official_duration_in)}
            </Alert>
          )}
          <Text size="sm" data-testid="renew-expiry">
            {t('users.expiresAt')}: <b data-testid="renew-old-exp">{formatDateTime(line.exp_date)}</b>
            {pkg && (
              <>
                {' → '}
                <b data-testid="renew-new-exp">{formatDateTime(renewedExpiry(line, pkg, nowSec()))}</b>
              </>
            )}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={renew.isPending} leftSection={<IconRefresh size={18} />} data-testid="renew-submit">
              {t('users.renew.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Short names on the shorten buttons; the fields carry the longer `users.links.formats.*` labels. */
const LINK_LABELS: Record<OfferedLink, string> = { m3u8: 'M3U8', hls: 'HLS', ssiptv: 'SSIPTV' };

/**
 * The offered links (HLS first: the default one, also sent by WhatsApp), each whole and wrapped so
 * their ends (`output=...`) tell them apart, a shorten button each, the shortened link with copy,
 * and news item 2.
 */
export function LinksModal({ line, opened, onClose }: LineModalProps) {
  const { t } = useTranslation();
  const links = useLineLinks(line.id, opened);
  const news = useNews();
  const shorten = useShortenLink();
  // a new request clears the previous link
  const short = shorten.data?.url ?? '';
  const busy = shorten.isPending ? shorten.variables.type : null;
  const notice = news.data?.find((n) => n.id === LINK_NEWS_ID && n.status === 1);

  return (
    <Modal opened={opened} onClose={onClose} title={t('users.links.title', { username: line.username })} centered size="lg" data-testid="links-modal">
      <Stack gap="sm">
        {notice && (
          <Alert color="blue" variant="light" title={notice.title} data-testid="links-news">
            <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {decodeNewsBody(notice.body)}
            </Text>
          </Alert>
        )}
        {LINK_TYPES.map((type) => (
          <Textarea
            key={type}
            label={t(`users.links.formats.${type}`)}
            readOnly
            autosize
            minRows={1}
            styles={{ input: { wordBreak: 'break-all', fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)' } }}
            value={links.data?.[type] ?? ''}
            placeholder={links.isLoading ? t('common.loading') : ''}
            rightSection={<CopyIconButton value={links.data?.[type] ?? ''} label={t('users.links.copy')} testId={`link-copy-${type}`} />}
            data-testid={`link-original-${type}`}
            onFocus={(e) => e.currentTarget.select()}
          />
        ))}
        <TextInput
          label={t('users.links.short')}
          readOnly
          value={short}
          placeholder={t('users.links.shortPlaceholder')}
          leftSection={<IconLink size={16} />}
          rightSection={<CopyIconButton value={short} label={t('users.links.copy')} testId="link-short-copy" />}
          data-testid="link-short"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Text size="sm" fw={500} mb={-6}>
          {t('users.links.shortenLabel')}
        </Text>
        <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs">
          {LINK_TYPES.map((type) => (
            <Button
              key={type}
              variant="light"
              leftSection={<IconScissors size={16} />}
              loading={busy === type}
              disabled={busy !== null && busy !== type}
              onClick={() => void shorten.mutateAsync({ userId: line.id, type })}
              aria-label={t('users.links.shorten', { type: LINK_LABELS[type] })}
              data-testid={`link-shorten-${type}`}
            >
              {LINK_LABELS[type]}
            </Button>
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
