import { Alert } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useComplements } from '../../api/complements';
import { FormPageShell } from '../../components/FormPageShell';
import { useGoBack } from '../../components/useGoBack';
import { paidPackages, screenLimit, trialPackages } from '../lines/api';
import { type CreatedCredentials, CreatedDialog } from '../lines/CreatedDialog';
import { LineForm, type LineFormValues } from '../lines/LineForm';
import type { P2pUser, Package } from '../../api/types';
import { useCreateP2pTrial, useCreateP2pUser } from './api';

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
  const packages = trial ? trialPackages(complements.data) : paidPackages(complements.data);
  const [created, setCreated] = useState<P2pUser | null>(null);
  const [formKey, setFormKey] = useState(0);
  // One key per creation intent (the values sent): a retry after a lost answer cannot charge twice.
  const createPaid = useCreateP2pUser();
  const createTrial = useCreateP2pTrial();

  const submit = async (v: LineFormValues, pkg: Package) => {
    const common = { name: v.name.trim(), username: v.username.trim() || undefined, password: v.password.trim() || undefined, package_id: pkg.id };
    // Errors go back to the form (field errors, then the line/shared texts).
    const body = {
      ...common,
      max_connections: pkg.max_connections >= 2 ? pkg.max_connections : Number(v.max_connections) || 1,
      whatsapp: v.whatsapp.trim() || undefined,
      notes: v.reseller_notes.trim() || undefined,
    };
    const user = trial ? await createTrial.mutateAsync(common) : await createPaid.mutateAsync(body);
    notifySuccess(trial ? t('p2p.created.trialSuccess') : t('p2p.created.success'));
    setCreated(user);
  };

  const noPackages = trial && complements.isSuccess && packages.length === 0 && (
    <Alert color="yellow" mb="sm" data-testid="trial-no-packages">
      {t('users.fast.noPackages')}
    </Alert>
  );

  return (
    <>
      <FormPageShell title={trial ? t('p2p.trialTitle') : t('p2p.createTitle')} onBack={goBack} backTestId="user-back" aboveForm={noPackages}>
        <LineForm
          key={formKey}
          withName
          withContact={!trial}
          packages={packages}
          packagesLoading={complements.isLoading}
          screens={trial ? undefined : { limit: screenLimit(complements.data) }}
          submitLabel={trial ? t('users.trialSubmit') : t('users.createSubmit')}
          onCancel={goBack}
          onSubmit={submit}
        />
      </FormPageShell>
      <CreatedDialog
        line={created && credentials(created)}
        title={trial ? t('p2p.created.trialSuccess') : t('p2p.created.success')}
        listTo="/p2p_users"
        onClose={() => setCreated(null)}
        onAnother={() => {
          setCreated(null);
          setFormKey((k) => k + 1);
        }}
      />
    </>
  );
}
