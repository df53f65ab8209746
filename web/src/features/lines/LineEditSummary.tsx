import { Group, Text } from '@mantine/core';
import { formatDateTime } from '../../lib/format';

interface Props {
  loginLabel: string;
  /** What the customer signs in with (not editable here). */
  login: string;
  loginTestId: string;
  expiryLabel: string;
  expDate: number;
}

/** The top of the line and P2P account edit forms: whose it is and until when. */
export function LineEditSummary({ loginLabel, login, loginTestId, expiryLabel, expDate }: Props) {
  return (
    <Group gap="lg">
      <Text size="sm">
        {loginLabel}: <b data-testid={loginTestId}>{login}</b>
      </Text>
      <Text size="sm">
        {expiryLabel}: <b>{formatDateTime(expDate)}</b>
      </Text>
    </Group>
  );
}
