import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { customerLink } from '../../lib/links';
import { type WhatsAppLine, type WhatsAppMessageKind, whatsappMessage, whatsappNumber, whatsappUrl } from '../../lib/whatsapp';
import { useLineLinks, useRenewalLink } from './api';

/** WhatsApp: yes/no "Aviso de vencimento", then a wa.me deep link (55 + number) with the message (and the PIX renewal link, when there is one). */
export function WhatsAppModal({ line, opened, onClose }: { line: WhatsAppLine; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const links = useLineLinks(line.id, opened);
  const renewal = useRenewalLink(line.id, opened);
  const [kind, setKind] = useState<WhatsAppMessageKind | null>(null);
  const number = whatsappNumber(line.whatsapp);
  const message = useMemo(
    () => (kind ? whatsappMessage(kind, line, customerLink(links.data), t, { renewal: renewal.data?.url }) : ''),
    [kind, line, links.data, renewal.data, t],
  );
  const href = number && kind ? whatsappUrl(number, message) : undefined;

  return (
    <Modal opened={opened} onClose={onClose} title={t('whatsapp.title', { username: line.username })} centered data-testid="whatsapp-modal">
      <Stack gap="sm">
        <Text size="sm">
          {t('whatsapp.to')}: <b>{line.whatsapp}</b>
        </Text>
        <Radio.Group
          label={t('whatsapp.warningLabel')}
          description={t('whatsapp.warningHint')}
          value={kind === null ? null : kind === 'warning' ? 'yes' : 'no'}
          onChange={(v) => setKind(v === 'yes' ? 'warning' : 'data')}
          required
        >
          <Group mt="xs">
            <Radio value="yes" label={t('common.yes')} data-testid="whatsapp-warning-yes" />
            <Radio value="no" label={t('common.no')} data-testid="whatsapp-warning-no" />
          </Group>
        </Radio.Group>
        {kind && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} data-testid="whatsapp-preview">
            {message}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            component="a"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            color="green"
            leftSection={<IconBrandWhatsapp size={18} />}
            disabled={!href || links.isLoading || renewal.isLoading}
            aria-disabled={!href || links.isLoading || renewal.isLoading}
            onClick={() => href && onClose()}
            data-testid="whatsapp-send"
          >
            {t('whatsapp.send')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export default WhatsAppModal;
