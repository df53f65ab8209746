import { ActionIcon, TextInput, type TextInputProps, Tooltip } from '@mantine/core';
import { IconDice5 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { randomCredential } from './format';

interface Props extends TextInputProps {
  /** Gets a new random credential (the dice button). */
  onGenerate: (credential: string) => void;
  generateTestId?: string;
}

/** A login or password field (at most 50 characters) with a button that fills in a random one. */
export function CredentialInput({ onGenerate, generateTestId, ...props }: Props) {
  const { t } = useTranslation();
  return (
    <TextInput
      maxLength={50}
      autoComplete="off"
      rightSection={
        <Tooltip label={t('users.form.generate')}>
          <ActionIcon variant="subtle" onClick={() => onGenerate(randomCredential())} aria-label={t('users.form.generate')} data-testid={generateTestId}>
            <IconDice5 size={18} />
          </ActionIcon>
        </Tooltip>
      }
      {...props}
    />
  );
}
