import { Loader, Modal } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { Reseller } from '../../api/types';
import './texts';

const CreditForm = lazy(() => import('./CreditForm'));

interface Props {
  reseller: Reseller | null;
  isAdmin: boolean;
  onClose: () => void;
}

/**
 * Credit manager: current and new balance (floored at 0), one signed amount
 * field (minimum 0 for non-admins), add (amount > 0), remove (admins only) and close.
 * Always mounted, so closing it returns focus to the button that opened it.
 */
export function CreditModal({ reseller, isAdmin, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={reseller !== null} onClose={onClose} title={t('resellers.credits.title')} centered data-testid="credit-modal">
      {reseller && (
        <Suspense fallback={<Loader size="sm" />}>
          <CreditForm key={reseller.id} reseller={reseller} isAdmin={isAdmin} onClose={onClose} />
        </Suspense>
      )}
    </Modal>
  );
}
