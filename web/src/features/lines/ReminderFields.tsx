import { Checkbox, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';

/** A line's e-mail and its opt-out of expiry reminders (create and edit forms of normal lines and trials). */
export function ReminderFields<V extends { email: string; opt_out_reminders: boolean }>({ form }: { form: UseFormReturnType<V> }) {
  const { t } = useTranslation();
  const f = form as unknown as UseFormReturnType<{ email: string; opt_out_reminders: boolean }>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label={t('users.email')} description={t('users.form.emailHint')} type="email" inputMode="email" maxLength={120} data-testid="line-email" {...f.getInputProps('email')} />
      <Checkbox mt={{ base: 0, sm: 'lg' }} label={t('users.optOut')} data-testid="line-opt-out" {...f.getInputProps('opt_out_reminders', { type: 'checkbox' })} />
    </SimpleGrid>
  );
}
