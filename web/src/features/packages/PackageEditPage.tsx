import { notifySuccess } from '../../api/notify';
import { useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { FormPageShell } from '../../components/FormPageShell';
import { WhenLoaded } from '../../components/WhenLoaded';
import { usePackage, useSavePackage } from './api';
import { PackageForm } from './PackageForm';
import { useGoBack } from '../../components/useGoBack';
import { isValidId } from '../../lib/ids';
import './texts';

/** /packages/{id}/edit — Cancel, Back and a successful save return to the previous page. */
export function PackageEditPage() {
  const { t } = useTranslation();
  const { packageId } = useParams({ from: '/auth/admin/packages/$packageId/edit' });
  const id = Number(packageId);
  const valid = isValidId(id);
  const pkg = usePackage(valid ? id : 0);
  const save = useSavePackage(id);
  const goBack = useGoBack('/packages');


  return (
    <FormPageShell title={t('packages.editTitle', { id: valid ? id : '?' })} onBack={goBack} backTestId="package-back">
      <WhenLoaded errorTestId="package-error" valid={valid} query={pkg} notFoundOn404={false}>
      {(data) => (
        <PackageForm
          key={data.id}
          initial={data}
          onCancel={goBack}
          onSubmit={async ({ package_name, bouquets, ...rest }) => {
            await save.mutateAsync({ package_name, bouquets, ...rest });
            notifySuccess(t('packages.updated'));
            goBack();
          }}
        />
      )}
      </WhenLoaded>
    </FormPageShell>
  );
}
