import { FormPageShell } from '../../components/FormPageShell';
import { notifySuccess } from '../../api/notify';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGoBack } from '../../components/useGoBack';
import { useComplements } from '../../api/complements';
import { useCreateLine } from './api';
import { paidPackages, screenLimit } from '../lines/api';
import { CreatedDialog } from '../lines/CreatedDialog';
import { LineForm } from '../lines/LineForm';
import type { Line } from '../../api/types';

/** /users/add — new paid line: credentials (typed or generated), non-trial package, screens, whatsapp, notes. */
export function UserCreatePage() {
  const { t } = useTranslation();
  const goBack = useGoBack('/users');
  const complements = useComplements();
  const [created, setCreated] = useState<Line | null>(null);
  const [formKey, setFormKey] = useState(0);
  // One key per creation intent (the values sent): a retry after a lost answer cannot charge twice.
  const create = useCreateLine();

  return (
    <>
      <FormPageShell title={t('users.createTitle')} onBack={goBack} backTestId="user-back">
        <LineForm
          key={formKey}
          packages={paidPackages(complements.data)}
          packagesLoading={complements.isLoading}
          screens={{ limit: screenLimit(complements.data) }}
          submitLabel={t('users.createSubmit')}
          onCancel={goBack}
          onSubmit={async (v, pkg) => {
            const body = {
              username: v.username.trim() || undefined,
              password: v.password.trim() || undefined,
              package_id: pkg.id,
              max_connections: pkg.max_connections >= 2 ? pkg.max_connections : Number(v.max_connections) || 1,
              whatsapp: v.whatsapp.trim() || undefined,
              reseller_notes: v.reseller_notes.trim() || undefined,
            };
            const line = await create.mutateAsync(body);
            notifySuccess(t('users.created.success'));
            setCreated(line);
          }}
        />
      </FormPageShell>
      <CreatedDialog
        line={created}
        title={t('users.created.success')}
        onClose={() => setCreated(null)}
        onAnother={() => {
          setCreated(null);
          setFormKey((k) => k + 1);
        }}
      />
    </>
  );
}
