import { FormPageShell } from '../../components/FormPageShell';
import { notifySuccess } from '../../api/notify';
import { useTranslation } from 'react-i18next';
import { useGoBack } from '../../components/useGoBack';
import { useComplements } from '../../api/complements';
import { useCreateLine } from './api';
import { paidPackages, screenLimit } from './packages';
import { CreatedDialog, useCreatedDialog } from './CreatedDialog';
import { formScreens, LineForm, lineFormBody } from './LineForm';
import type { Line } from '../../api/types';

/** /users/add — new paid line: credentials (typed or generated), non-trial package, screens, whatsapp, notes. */
export function UserCreatePage() {
  const { t } = useTranslation();
  const goBack = useGoBack('/users');
  const complements = useComplements();
  const dialog = useCreatedDialog<Line>();
  // One key per creation intent (the values sent): a retry after a lost answer cannot charge twice.
  const create = useCreateLine();

  return (
    <>
      <FormPageShell title={t('users.createTitle')} onBack={goBack} backTestId="user-back">
        <LineForm
          key={dialog.formKey}
          packages={paidPackages(complements.data)}
          packagesLoading={complements.isLoading}
          screens={{ limit: screenLimit(complements.data) }}
          withReminders
          submitLabel={t('users.createSubmit')}
          onCancel={goBack}
          onSubmit={async (v, pkg) => {
            const line = await create.mutateAsync({ ...lineFormBody(v, pkg), max_connections: formScreens(v, pkg) });
            notifySuccess(t('users.created.success'));
            dialog.show(line);
          }}
        />
      </FormPageShell>
      <CreatedDialog
        line={dialog.created}
        title={t('users.created.success')}
        onClose={dialog.close}
        onAnother={dialog.another}
      />
    </>
  );
}
