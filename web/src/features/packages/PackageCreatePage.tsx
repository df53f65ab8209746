import { FormPageShell } from '../../components/FormPageShell';
import { notifySuccess } from '../../api/notify';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useSavePackage } from './api';
import { EMPTY_PACKAGE, PackageForm } from './PackageForm';
import { useGoBack } from '../../components/useGoBack';
import './texts';

/** /packages/new — full package form; success goes to the package list sorted newest first. */
export function PackageCreatePage() {
  const { t } = useTranslation();
  const save = useSavePackage();
  const navigate = useNavigate();
  const goBack = useGoBack('/packages');
  return (
    <FormPageShell title={t('packages.createTitle')} onBack={goBack} backTestId="package-back">
      <PackageForm
        initial={EMPTY_PACKAGE}
        onCancel={goBack}
        onSubmit={async (values) => {
          await save.mutateAsync(values);
          notifySuccess(t('packages.created'));
          await navigate({ to: '/packages', search: { order_by: 'id,desc' } });
        }}
      />
    </FormPageShell>
  );
}
