import { Alert } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { useTranslation } from 'react-i18next';
import { useComplements, useP2pConfigured } from '../../api/complements';
import { FormPageShell } from '../../components/FormPageShell';
import { useGoBack } from '../../components/useGoBack';
import { paidPackages, screenLimit, trialPackages } from '../lines/packages';
import { type CreatedCredentials, CreatedDialog, useCreatedDialog } from '../lines/CreatedDialog';
import { formScreens, LineForm, type LineFormValues, lineFormBody } from '../lines/LineForm';
import type { P2pUser, Package } from '../../api/types';
import { useCreateP2pTrial, useCreateP2pUser } from './api';
import { P2pNotConfigured } from './P2pNotConfigured';

/** What the customer signs in with: the account's e-mail (login) and password. */
const credentials = (u: P2pUser): CreatedCredentials => ({ username: u.email, password: u.password, exp_date: u.expiracao });

/** /p2p_users/add — paid P2P account, priced like a normal line (screens x official credits). */
export function P2pCreatePage() {
  return <P2pCreate trial={false} />;
}

/** /p2p_users/add_trial — free P2P trial from a trial package (same daily limit as line trials). */
export function P2pTrialCreatePage() {
  return <P2pCreate trial />;
}

function P2pCreate({ trial }: { trial: boolean }) {
  const { t } = useTranslation();
  const goBack = useGoBack('/p2p_users');
  const complements = useComplements();
  // Without the P2P server the server refuses the creation (503 NOT_CONFIGURED): say so first, no submit.
  const p2pOff = useP2pConfigured() === false;
  const packages = trial ? trialPackages(complements.data) : paidPackages(complements.data);
  const dialog = useCreatedDialog<P2pUser>();
  // One key per creation intent (the values sent): a retry after a lost answer cannot charge twice.
  const createPaid = useCreateP2pUser();
  const createTrial = useCreateP2pTrial();

  const submit = async (v: LineFormValues, pkg: Package) => {
    const { username, password, package_id, whatsapp, reseller_notes } = lineFormBody(v, pkg);
    const common = { name: v.name.trim(), username, password, package_id };
    // Errors go back to the form (field errors, then the line/shared texts).
    const user = trial
      ? await createTrial.mutateAsync(common)
      : await createPaid.mutateAsync({ ...common, max_connections: formScreens(v, pkg), whatsapp, notes: reseller_notes });
    notifySuccess(trial ? t('p2p.created.trialSuccess') : t('p2p.created.success'));
    dialog.show(user);
  };

  const noPackages = trial && complements.isSuccess && packages.length === 0 && (
    <Alert color="yellow" mb="sm" data-testid="trial-no-packages">
      {t('users.fast.noPackages')}
    </Alert>
  );

  return (
    <>
      <FormPageShell
        title={trial ? t('p2p.trialTitle') : t('p2p.createTitle')}
        onBack={goBack}
        backTestId="user-back"
        aboveForm={
          (p2pOff || noPackages) && (
            <>
              {p2pOff && <P2pNotConfigured />}
              {noPackages}
            </>
          )
        }
      >
        <LineForm
          key={dialog.formKey}
          withName
          withContact={!trial}
          packages={packages}
          packagesLoading={complements.isLoading}
          screens={trial ? undefined : { limit: screenLimit(complements.data) }}
          submitLabel={trial ? t('users.trialSubmit') : t('users.createSubmit')}
          submitDisabled={p2pOff}
          onCancel={goBack}
          onSubmit={submit}
        />
      </FormPageShell>
      <CreatedDialog
        line={dialog.created && credentials(dialog.created)}
        title={trial ? t('p2p.created.trialSuccess') : t('p2p.created.success')}
        listTo="/p2p_users"
        onClose={dialog.close}
        onAnother={dialog.another}
      />
    </>
  );
}
