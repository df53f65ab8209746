import { Alert, Badge, Box, Button, Card, Center, CopyButton, Group, Image, Loader, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useInterval } from '@mantine/hooks';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { errorText } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { whatsappNumber, whatsappUrl } from '../../lib/whatsapp';
import { AppThemeProvider } from '../../theme/AppThemeProvider';
import { customerToken, forgetCustomer, useCharge, useCreateCharge, useCustomerLine, useCustomerSignIn } from './api';
import '../../styles/signed-in.css';
import './texts';
import { ErrorAlert } from '../../components/basic/ErrorAlert';

const money = (cents: number) => (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/** /minha-conta — a customer signs in with the line (or a reminder's link), sees it, and renews it by PIX. */
export function CustomerPage() {
  // outside the panel's layout: the theme is provided here
  return (
    <AppThemeProvider>
      <Customer />
    </AppThemeProvider>
  );
}

function Customer() {
  const { t } = useTranslation();
  const search = useSearch({ strict: false }) as { t?: string };
  const navigate = useNavigate();
  const [token, setToken] = useState<string | null>(() => customerToken());
  const signIn = useCustomerSignIn();
  const [linkFailed, setLinkFailed] = useState(false);

  // a reminder's link: opened once, then dropped from the address bar
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for a new link only (navigate and the mutation are stable enough)
  useEffect(() => {
    if (!search.t) return;
    const link = search.t;
    void navigate({ to: '/minha-conta', search: {}, replace: true });
    const openLink = async () => {
      try {
        setToken((await signIn.mutateAsync({ link })).token);
      } catch {
        // the call is silent (no toasts on this page): an expired link says so in place
        setLinkFailed(true);
      }
    };
    void openLink();
  }, [search.t]);

  // the tab says which page this is (index.html's title is the panel's)
  useEffect(() => {
    const before = document.title;
    document.title = t('customer.title');
    return () => {
      document.title = before;
    };
  }, [t]);

  const line = useCustomerLine(token);
  useEffect(() => {
    if (line.error && isApiError(line.error) && line.error.status === 401) {
      forgetCustomer();
      setToken(null);
    }
  }, [line.error]);

  return (
    <Box maw={460} mx="auto" px="sm" py="lg">
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('customer.title')}
        </Title>
        {!token && (
          <>
            {linkFailed && (
              <Alert color="orange" data-testid="customer-link-expired">
                {t('customer.linkExpired')}
              </Alert>
            )}
            {signIn.isPending && search.t ? <Loader /> : <SignIn onDone={setToken} />}
          </>
        )}
        {token && line.isPending && (
          <Center>
            <Loader />
          </Center>
        )}
        {token && line.error && !(isApiError(line.error) && line.error.status === 401) && (
          <LoadErrorAlert onRetry={() => line.refetch()} notFound={isApiError(line.error) && line.error.status === 404} testId="customer-line-error" />
        )}
        {token && line.data && <LineCard token={token} line={line.data} onSignOut={() => {
              forgetCustomer();
              setToken(null);
            }} />}
      </Stack>
    </Box>
  );
}

function SignIn({ onDone }: { onDone: (token: string) => void }) {
  const { t } = useTranslation();
  const signIn = useCustomerSignIn();
  const form = useForm({ initialValues: { username: '', password: '' } });
  const [error, setError] = useState<string | null>(null);
  const submit = form.onSubmit(async (v) => {
    try {
      onDone((await signIn.mutateAsync({ username: v.username.trim(), password: v.password })).token);
    } catch (e) {
      // the call is silent (no toasts on this page): the error shows in place
      setError(isApiError(e) && e.status === 429 ? t('customer.tooMany') : t('customer.wrong'));
    }
  });
  return (
    <Card withBorder radius="md" p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('customer.signInHelp')}
          </Text>
          {error && (
            <ErrorAlert testId="customer-error">{error}</ErrorAlert>
          )}
          <TextInput label={t('customer.username')} autoComplete="username" autoCapitalize="none" required data-testid="customer-username" {...form.getInputProps('username')} />
          <PasswordInput label={t('customer.password')} autoComplete="current-password" required data-testid="customer-password" {...form.getInputProps('password')} />
          <Button type="submit" loading={signIn.isPending} data-testid="customer-sign-in">
            {t('customer.signIn')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

type Line = NonNullable<ReturnType<typeof useCustomerLine>['data']>;

function LineCard({ token, line, onSignOut }: { token: string; line: Line; onSignOut: () => void }) {
  const { t } = useTranslation();
  const now = Date.now() / 1000;
  const expired = line.exp_date <= now;
  const [chargeId, setChargeId] = useState<number | undefined>();
  const create = useCreateCharge(token);
  const charge = useCharge(token, chargeId);
  const c = charge.data ?? create.data;

  // the error is shown below the offers (create.error); pressing again retries the same charge
  const renew = async (packageId: number) => setChargeId((await create.mutateAsync({ packageId })).id);
  const pressed = create.isPending ? create.variables?.packageId : undefined;
  const contact = <ResellerContact whatsapp={line.reseller.whatsapp} username={line.username} />;

  return (
    <Stack gap="md">
      <Card withBorder radius="md" p="md" data-testid="customer-line">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text fw={700} size="lg" data-testid="customer-line-username">
              {line.username}
            </Text>
            <Text size="sm" c="dimmed">
              {line.package_name ?? ''}
            </Text>
          </div>
          <Badge color={!line.enabled ? 'gray' : expired ? 'red' : 'green'} variant="light">
            {!line.enabled ? t('customer.blocked') : expired ? t('customer.expired') : t('customer.active')}
          </Badge>
        </Group>
        <Text mt="sm" data-testid="customer-expiry">
          {t(expired ? 'customer.expiredOn' : 'customer.expiresOn', { date: formatDateTime(line.exp_date) })}
        </Text>
        <Text size="sm" fw={500} mt="md">
          {t('customer.playlist')}
        </Text>
        <Group gap="xs" wrap="nowrap" mt={4}>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere', flex: 1 }} data-testid="customer-playlist">
            {line.playlist_url}
          </Text>
          <CopyButton value={line.playlist_url}>{({ copied, copy }) => <Button size="compact-xs" variant="light" onClick={copy}>{copied ? t('customer.copied') : t('customer.copy')}</Button>}</CopyButton>
        </Group>
        <Center mt="sm">
          <Image src={line.playlist_qr} alt={t('customer.playlistQr')} w={160} h={160} />
        </Center>
      </Card>

      {c && c.status !== 'pending' ? (
        <Settled status={c.status} expAfter={c.exp_after} />
      ) : c ? (
        <PixCharge charge={c} />
      ) : !line.enabled ? (
        <Alert color="gray" variant="light" data-testid="customer-blocked">
          <Stack gap="sm">
            <Text size="sm">{t('customer.blockedHelp')}</Text>
            {contact}
          </Stack>
        </Alert>
      ) : line.payments_enabled ? (
        <Card withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="sm">
            {t('customer.renew')}
          </Title>
          <Stack gap="sm">
            {line.offers.map((o) => (
              <Stack key={o.package_id} gap={4}>
                <Button
                  variant="light"
                  justify="space-between"
                  fullWidth
                  loading={pressed === o.package_id}
                  disabled={create.isPending && pressed !== o.package_id}
                  onClick={() => void renew(o.package_id)}
                  rightSection={money(o.price_cents)}
                  data-testid={`customer-offer-${o.package_id}`}
                >
                  {o.package_name}
                </Button>
                {/* paying for another package moves the line to it (its term, screens and channels) */}
                {line.package_id !== null && line.package_name && o.package_id !== line.package_id && (
                  <Text size="xs" c="orange.8" data-testid={`customer-offer-${o.package_id}-changes`}>
                    {t('customer.changesPlan', { from: line.package_name, to: o.package_name })}
                  </Text>
                )}
              </Stack>
            ))}
            {create.error !== null && !create.isPending && (
              <>
                <ErrorAlert testId="customer-charge-error">{errorText(create.error, 'customer')}</ErrorAlert>
                {contact}
              </>
            )}
          </Stack>
        </Card>
      ) : (
        <Alert color="blue" variant="light" data-testid="customer-no-pix">
          <Stack gap="sm">
            <Text size="sm">{t('customer.talkToReseller')}</Text>
            {contact}
          </Stack>
        </Alert>
      )}
      <Button variant="subtle" color="gray" onClick={onSignOut} data-testid="customer-sign-out">
        {t('customer.signOut')}
      </Button>
    </Stack>
  );
}

/** The reseller's WhatsApp, as a link with a message ready (nothing without a number: the text already says to talk to them). */
function ResellerContact({ whatsapp, username }: { whatsapp: string | null; username: string }) {
  const { t } = useTranslation();
  const number = whatsappNumber(whatsapp);
  if (!number) return null;
  return (
    <Button
      component="a"
      href={whatsappUrl(number, t('customer.whatsappMessage', { username }))}
      target="_blank"
      rel="noopener noreferrer"
      color="green"
      variant="light"
      fullWidth
      leftSection={<IconBrandWhatsapp size={18} />}
      data-testid="customer-whatsapp"
    >
      {t('customer.whatsapp')}
    </Button>
  );
}

type Charge = NonNullable<ReturnType<typeof useCharge>['data']>;

function PixCharge({ charge }: { charge: Charge }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(() => Math.max(0, charge.expires_at - Math.floor(Date.now() / 1000)));
  const tick = useInterval(() => setLeft(Math.max(0, charge.expires_at - Math.floor(Date.now() / 1000))), 1000);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the countdown starts once, with the card
  useEffect(() => {
    tick.start();
    return tick.stop;
  }, []);
  const mm = String(Math.floor(left / 60)).padStart(2, '0');
  const ss = String(left % 60).padStart(2, '0');
  return (
    <Card withBorder radius="md" p="md" data-testid="customer-pix">
      <Stack gap="sm" align="center">
        <Text fw={700}>{t('customer.payWithPix', { amount: money(charge.amount_cents) })}</Text>
        {charge.qr_code_base64 && <Image src={`data:image/png;base64,${charge.qr_code_base64}`} alt={t('customer.pixQr')} w={220} h={220} />}
        <Text size="xs" c="dimmed" ta="center" style={{ overflowWrap: 'anywhere' }} data-testid="customer-pix-code">
          {charge.qr_code}
        </Text>
        {charge.qr_code && (
          <CopyButton value={charge.qr_code}>
            {({ copied, copy }) => (
              <Button fullWidth onClick={copy} color={copied ? 'teal' : undefined} data-testid="customer-pix-copy">
                {copied ? t('customer.copied') : t('customer.copyPix')}
              </Button>
            )}
          </CopyButton>
        )}
        <Text size="sm" c={left < 120 ? 'red' : 'dimmed'} data-testid="customer-countdown">
          {left > 0 ? t('customer.expiresIn', { time: `${mm}:${ss}` }) : t('customer.chargeExpired')}
        </Text>
        <Group gap={6}>
          <Loader size="xs" />
          <Text size="xs" c="dimmed">
            {t('customer.waiting')}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

function Settled({ status, expAfter }: { status: string; expAfter: number | null }) {
  const { t } = useTranslation();
  if (status === 'applied')
    return (
      <Alert color="green" title={t('customer.paid')} data-testid="customer-renewed">
        {t('customer.renewedUntil', { date: formatDateTime(expAfter ?? 0) })}
      </Alert>
    );
  if (status === 'paid_awaiting_credits')
    return (
      <Alert color="blue" title={t('customer.paid')} data-testid="customer-processing">
        {t('customer.processing')}
      </Alert>
    );
  return (
    <Alert color="orange" data-testid="customer-charge-failed">
      {status === 'expired' ? t('customer.chargeExpired') : status === 'failed' ? t('customer.failed') : t('customer.rejected')}
    </Alert>
  );
}
