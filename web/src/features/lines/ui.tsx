import { ActionIcon, Badge, Switch, Text, Tooltip } from '@mantine/core';
import { toast } from '../../api/notify';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cut } from '../../lib/format';
import { lineStatus, STATUS_COLOR, systemLabel } from './format';

/** Badges in table cells: full label, never cut. */
const BADGE_STYLES = { root: { textTransform: 'none', overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } } as const;

export function StatusBadge({ line, now, testId }: { line: { enabled: number; exp_date: number }; now: number; testId?: string }) {
  const { t } = useTranslation();
  const status = lineStatus(line, now);
  return (
    <Badge color={STATUS_COLOR[status]} variant="filled" data-testid={testId} data-status={status} styles={BADGE_STYLES}>
      {t(`users.status.${status}`)}
    </Badge>
  );
}

/** Text cut at 25 characters; the full text in a tooltip when cut. */
export function CutText({ text, testId }: { text: string | null | undefined; testId?: string }) {
  const full = (text ?? '').trim();
  const short = cut(full);
  if (!full) return <Text size="sm" c="dimmed">-</Text>;
  const node = (
    <Text size="sm" data-testid={testId} style={{ whiteSpace: 'nowrap' }}>
      {short}
    </Text>
  );
  return short === full ? node : (
    <Tooltip label={full} multiline maw={320} events={{ hover: true, focus: true, touch: true }}>
      {node}
    </Tooltip>
  );
}

/** HTTP/P2P switch (only while the line is enabled; a blocked line just shows its system). */
export function SystemSwitch({ system, enabled, busy, onToggle, testId }: { system: number; enabled: boolean; busy: boolean; onToggle: () => void; testId?: string }) {
  const { t } = useTranslation();
  if (!enabled) {
    return (
      <Tooltip label={t('users.system.blockedHint')}>
        <Badge variant="outline" color="gray" data-testid={testId} style={{ textTransform: 'none' }}>
          {systemLabel(system)}
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Tooltip label={systemLabel(system)}>
      <Switch
        size="lg"
        checked={system !== 1}
        disabled={busy}
        onChange={onToggle}
        onLabel={system === 3 ? 'BR' : 'P2P'}
        offLabel="HTTP"
        aria-label={t('users.system.toggle')}
        data-testid={testId}
        data-system={system}
      />
    </Tooltip>
  );
}

/** Clipboard write with a fallback for plain-HTTP pages (no Clipboard API outside secure contexts). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

/** Copy button: 'Link copiado com sucesso!' / 'Erro ao copiar link' (or custom texts). */
export function CopyIconButton({ value, label, successText, testId }: { value: string; label: string; successText?: string; testId?: string }) {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  const onCopy = async () => {
    const ok = value !== '' && (await copyText(value));
    toast({ color: ok ? 'green' : 'red', message: ok ? (successText ?? t('users.links.copied')) : t('users.links.copyError') });
    if (ok) {
      setDone(true);
      window.setTimeout(() => setDone(false), 1500);
    }
  };
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={done ? 'teal' : 'gray'} onClick={() => void onCopy()} disabled={!value} aria-label={label} data-testid={testId}>
        {done ? <IconCheck size={16} /> : <IconCopy size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}

/** The title cell of a customer row: the login, a trial tag, and on phone cards the id under it. */
export function LoginCell({ login, id, trial, showId, testId }: { login: string; id: number; trial: boolean; showId: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" fw={600} data-testid={testId}>
        {login}
        {trial && (
          <Text span size="xs" c="orange" fw={700} ml={6}>
            {t('users.trialTag')}
          </Text>
        )}
      </Text>
      {showId && (
        <Text size="xs" c="dimmed">
          #{id}
        </Text>
      )}
    </div>
  );
}
