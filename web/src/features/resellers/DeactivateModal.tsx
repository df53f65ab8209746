import { Loader, Modal } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { Reseller } from '../../api/types';
import './texts';

const DeactivateForm = lazy(() => import('./DeactivateForm'));

interface Props {
  reseller: Reseller | null;
  onClose: () => void;
}

/**
 * Admin only: sub-reseller and client counts, the single option
 * "transfer all to another reseller" with an async picker; confirm needs the option and a target id >= 1.
 * The form loads when the dialog first opens (the form library stays out of the list's first load).
 */
export function DeactivateModal({ reseller, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={reseller !== null} onClose={onClose} title={t('resellers.deactivate.title')} centered>
      {reseller && (
        <Suspense fallback={<Loader size="sm" />}>
          <DeactivateForm key={reseller.id} reseller={reseller} onClose={onClose} />
        </Suspense>
      )}
    </Modal>
  );
}
