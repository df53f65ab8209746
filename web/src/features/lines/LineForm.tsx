import { Alert, Button, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { lazy, Suspense } from 'react';
import { IconDice5 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';

import { screensWith } from './packages';
import { CREDENTIAL_RE, randomCredential, WHATSAPP_RE } from './format';
import type { Package } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import { NumberField } from '../../components/NumberField';
import { CredentialInput } from './CredentialInput';
import { durationText } from './durationText';

// The e-mail and opt-out fields load on their own: the P2P forms never need them.
const ReminderFields = lazy(() => import('./ReminderFields').then((m) => ({ default: m.ReminderFields })));

export interface LineFormValues {
  /** P2P accounts only: the customer's name. */
  name: string;
  username: string;
  password: string;
  package_id: string | null;
  max_connections: number | string;
  whatsapp: string;
  /** normal lines and trials: the customer's e-mail and opt-out of expiry reminders */
  email: string;
  opt_out_reminders: boolean;
  reseller_notes: string;
}

/** What the form sends for any line: the typed credentials (left empty, the server makes them), the package, the contact. */
export function lineFormBody(v: LineFormValues, pkg: Package) {
  return {
    username: v.username.trim() || undefined,
    password: v.password.trim() || undefined,
    package_id: pkg.id,
    whatsapp: v.whatsapp.trim() || undefined,
    email: v.email.trim() || undefined,
    opt_out_reminders: v.opt_out_reminders || undefined,
    reseller_notes: v.reseller_notes.trim() || undefined,
  };
}

/** The screens a paid line gets: the package's, or the form's screens field. */
export const formScreens = (v: LineFormValues, pkg: Package): number => screensWith(pkg, Number(v.max_connections) || 1);

export const EMPTY_LINE_FORM: LineFormValues = { name: '', username: '', password: '', package_id: null, max_connections: 1, whatsapp: '', email: '', opt_out_reminders: false, reseller_notes: '' };

interface Props {
  packages: Package[];
  packagesLoading: boolean;
  /** Screens field (normal lines only): min 1, max the setting user_limit_screen. */
  screens?: { limit: number };
  /** P2P accounts: a required name field on top. */
  withName?: boolean;
  /** WhatsApp and notes fields (P2P trials have none). Default true. */
  withContact?: boolean;
  /** E-mail and the reminders opt-out (lines, not P2P accounts). Default false. */
  withReminders?: boolean;
  submitLabel: string;
  /** The submit button is disabled (the page says why). */
  submitDisabled?: boolean;
  onSubmit: (values: LineFormValues, pkg: Package) => Promise<void>;
  onCancel: () => void;
}

/** Create form of normal and trial lines: credentials with generate buttons, package, screens, whatsapp, notes. */
export function LineForm({ packages, packagesLoading, screens, withName = false, withContact = true, withReminders = false, submitLabel, submitDisabled = false, onSubmit, onCancel }: Props) {
  const { t } = useTranslation();
  // a mistyped e-mail is refused by the server on its field (kept out of here: every line form's first load)
  const form = useForm<LineFormValues>({
    initialValues: EMPTY_LINE_FORM,
    validate: {
      name: (v) => (withName && (!v.trim() || v.length > 100) ? t('p2p.form.nameRequired') : null),
      username: (v) => (v.length > 50 || !CREDENTIAL_RE.test(v.trim()) ? t('users.form.credentialInvalid') : null),
      password: (v) => (v.length > 50 || !CREDENTIAL_RE.test(v.trim()) ? t('users.form.credentialInvalid') : null),
      package_id: (v) => (v ? null : t('users.form.packageRequired')),
      whatsapp: (v) => (v.length > 20 || !WHATSAPP_RE.test(v) ? t('users.form.whatsappInvalid') : null),
      reseller_notes: (v) => (v.length > 500 ? t('users.form.notesTooLong') : null),
    },
  });
  const pkg = packages.find((p) => String(p.id) === form.values.package_id);
  const fixedScreens = pkg && pkg.max_connections >= 2 ? pkg.max_connections : undefined;

  // A package with 2+ screens fixes the screens field to its value; leaving such a package resets it to 1.
  const onPackage = (value: string | null) => {
    form.setFieldValue('package_id', value);
    const next = packages.find((p) => String(p.id) === value);
    if (next && next.max_connections >= 2) form.setFieldValue('max_connections', next.max_connections);
    else if (fixedScreens !== undefined) form.setFieldValue('max_connections', 1);
  };

  const submit = form.onSubmit(async (values) => {
    if (submitDisabled) return;
    const chosen = packages.find((p) => String(p.id) === values.package_id);
    if (!chosen) return;
    if (screens && chosen.max_connections < 2) {
      const n = Number(values.max_connections);
      if (!Number.isInteger(n) || n < 1 || n > screens.limit) {
        form.setFieldError('max_connections', t('users.form.screensRange', { limit: screens.limit }));
        return;
      }
    }
    try {
      await onSubmit(values, chosen);
      form.reset();
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      if (isApiError(e) && e.field && e.field in values) form.setFieldError(e.field, e.code === 'USERNAME_TAKEN' ? t('errors.USERNAME_TAKEN') : e.message);
    }
  });

  const screensCount = fixedScreens ?? (Number(form.values.max_connections) || 1);
  const cost = pkg ? (screens ? screensCount : 0) * pkg.official_credits : 0;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {withName && <TextInput label={t('p2p.form.name')} required maxLength={100} autoComplete="off" data-testid="user-name" {...form.getInputProps('name')} />}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <CredentialInput
            label={t('users.username')}
            description={t('users.form.generatedHint')}
            onGenerate={(username) => form.setFieldValue('username', username)}
            generateTestId="user-generate-username"
            data-testid="user-username"
            {...form.getInputProps('username')}
          />
          <CredentialInput
            label={t('users.password')}
            description={t('users.form.generatedHint')}
            onGenerate={(password) => form.setFieldValue('password', password)}
            generateTestId="user-generate-password"
            data-testid="user-password"
            {...form.getInputProps('password')}
          />
        </SimpleGrid>
        <Button
          variant="light"
          leftSection={<IconDice5 size={18} />}
          onClick={() => form.setValues({ username: randomCredential(), password: randomCredential() })}
          style={{ alignSelf: 'flex-start' }}
          data-testid="user-generate"
        >
          {t('users.form.generateBoth')}
        </Button>
        <SimpleGrid cols={{ base: 1, sm: screens ? 2 : 1 }}>
          <Select
            label={t('users.package')}
            placeholder={t('users.packagePlaceholder')}
            required
            searchable
            data={packages.map((p) => ({ value: String(p.id), label: p.package_name }))}
            disabled={packagesLoading}
            nothingFoundMessage={t('common.noRecords')}
            data-testid="user-package"
            {...form.getInputProps('package_id')}
            onChange={onPackage}
          />
          {screens && (
            <NumberField
              label={t('users.screensLabel')}
              description={fixedScreens ? t('users.form.screensFixed') : t('users.form.screensHint', { limit: screens.limit })}
              min={1}
              max={fixedScreens ?? screens.limit}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="strict"
              disabled={fixedScreens !== undefined}
              data-testid="user-screens"
              {...form.getInputProps('max_connections')}
            />
          )}
        </SimpleGrid>
        {pkg && (
          <Alert color="blue" variant="light" data-testid="user-cost">
            {screens ? `${t('users.form.cost', { count: cost })} · ` : `${t('users.form.free')} · `}
            {screens
              ? durationText(t, pkg.official_duration, pkg.official_duration_in)
              : pkg.package_name}
          </Alert>
        )}
        {withContact && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('users.whatsappLabel')}
            description={t('users.form.whatsappHint')}
            placeholder="11 91234-5678"
            inputMode="tel"
            maxLength={20}
            data-testid="user-whatsapp"
            {...form.getInputProps('whatsapp')}
          />
          <Textarea label={t('users.notes')} autosize minRows={1} maxRows={4} maxLength={500} data-testid="user-notes" {...form.getInputProps('reseller_notes')} />
        </SimpleGrid>
        )}
        {withReminders && (
          <Suspense fallback={null}>
            <ReminderFields form={form} />
          </Suspense>
        )}
        <FormActions onCancel={onCancel} submitting={form.submitting} submitDisabled={submitDisabled} submitLabel={submitLabel} cancelTestId="user-cancel" submitTestId="user-submit" />
      </Stack>
    </form>
  );
}
