import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { type WhatsAppLine, whatsappNumber } from '../../lib/whatsapp';

// Opened by a click: the modal is not part of the list's first load.
const WhatsAppModal = lazy(() => import('./WhatsAppModal'));

/**
 * The one WhatsApp flow of a line (dashboard expirations and /users): without a stored number a
 * warning says how to add one; otherwise `open` shows the modal.
 */
export function useWhatsAppDialog() {
  const { t } = useTranslation();
  const [line, setLine] = useState<WhatsAppLine | null>(null);
  const open = (l: WhatsAppLine) => {
    if (whatsappNumber(l.whatsapp)) setLine(l);
    else toast({ id: `no-whatsapp-${l.id}`, color: 'yellow', message: t('whatsapp.noNumber') });
  };
  const modal = line ? (
    <Suspense fallback={null}>
      <WhatsAppModal line={line} opened onClose={() => setLine(null)} />
    </Suspense>
  ) : null;
  return { open, modal };
}
