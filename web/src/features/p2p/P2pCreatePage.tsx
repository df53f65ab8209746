import { Alert, Button, Paper, Stack } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useComplements, useP2pConfigured } from '../../api/complements';
import { useIntentKeys } from '../../api/intentKeys';
import { PageHeader } from '../../components/PageHeader';
import { useGoBack } from '../../components/useGoBack';
import { reloadProfile } from '../../api/profile';
import { paidPackages, screenLimit, trialPackages } from '../lines/api';
import { type CreatedCredentials, CreatedDialog } from '../lines/CreatedDialog';
import { LineForm, type LineFormValues } from '../lines/LineForm';
import type { P2pUser, Package } from '../../api/types';
import { createP2pTrial, createP2pUser, invalidateP2pUsers } from './api';
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
  const [created, setCreated] = useState<P2pUser | null>(null);
  const [formKey, setFormKey] = useState(0);
  // One key per creation intent (the values sent): a retry after a lost answer cannot charge twice.
  const intents = useIntentKeys();

  const submit = async (v: LineFormValues, pkg: Package) => {
    const common = { name: v.name.trim(), username: v.username.trim() || undefined, password: v.password.trim() || undefined, package_id: pkg.id };
    // Errors go back to the form (field errors, then the line/shared texts).
    const body = {
      ...common,
      max_connections: pkg.max_connections >= 2 ? pkg.max_connections : Number(v.max_connections) || 1,
      whatsapp: v.whatsapp.trim() || undefined,
      notes: v.reseller_notes.trim() || undefined,
    };
    const user = trial ? await createP2pTrial(common) : await intents.send(body, (key) => createP2pUser(body, key));
    notifySuccess(trial ? t('p2p.created.trialSuccess') : t('p2p.created.success'));
    void reloadProfile();
    void invalidateP2pUsers();
    setCreated(user);
  };

  return (
    <Stack gap={0} maw={900}>
      <PageHeader
        title={trial ? t('p2p.trialTitle') : t('p2p.createTitle')}
        actions={
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={goBack} data-testid="user-back">
            {t('common.back')}
          </Button>
        }
      />
      {p2pOff && <P2pNotConfigured />}
      {trial && complements.isSuccess && packages.length === 0 && (
        <Alert color="yellow" mb="sm" data-testid="trial-no-packages">
          {t('users.fast.noPackages')}
        </Alert>
      )}
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <LineForm
          key={formKey}
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
      </Paper>
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
    </Stack>
  );
}
