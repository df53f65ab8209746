import { FormPageShell } from '../../components/FormPageShell';
import { WhenLoaded } from '../../components/WhenLoaded';
import { notifySuccess } from '../../api/notify';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useGoBack } from '../../components/useGoBack';
import { useProfile } from '../../api/profile';
import { useComplements } from '../../api/complements';
import { useCreateReseller } from './api';
import { EMPTY_RESELLER, ResellerForm, type ResellerFormValues } from './ResellerForm';
import type { ResellerCreate } from '../../api/types';
import './texts';

/** Create body: trimmed texts, empty optional fields left out, integer credits. */
function toCreateBody(v: ResellerFormValues): ResellerCreate {
  const body: ResellerCreate = {
    username: v.username.trim(),
    password: v.password,
    member_group_id: Number(v.member_group_id),
    credits: Math.max(0, Math.trunc(Number(v.credits) || 0)),
  };
  for (const f of ['email', 'whatsapp', 'telegram', 'notes'] as const) {
    const text = v[f].trim();
    if (text) body[f] = text;
  }
  return body;
}

/** /resellers/add — masters may only create plain resellers; admins pick any group. Success goes to the list. */
export function ResellerCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack('/resellers');
  const profile = useProfile();
  const complements = useComplements();
  const create = useCreateReseller(); // a retry of the same values reuses its key: one charge of the initial credits

  const groups = useMemo(() => {
    const all = complements.data?.groups ?? [];
    return profile.data?.type === 'admin' ? all : all.filter((g) => g.type === 'reseller');
  }, [complements.data, profile.data]);
  const ready = !!profile.data && !!complements.data;
  const initial = useMemo<ResellerFormValues>(() => {
    const plain = groups.find((g) => g.type === 'reseller') ?? groups[0];
    return { ...EMPTY_RESELLER, member_group_id: plain ? String(plain.group_id) : null };
  }, [groups]);

  return (
    <FormPageShell title={t('resellers.createTitle')} onBack={goBack} backTestId="reseller-back">
      {/* the groups offered come from the complements (and the caller's role, from the profile) */}
      <WhenLoaded query={{ ...complements, data: ready ? initial : undefined }} errorTestId="reseller-create-error">
        {(initialValues) => (
          <ResellerForm
            mode="create"
            initial={initialValues}
            groups={groups}
            onCancel={goBack}
            onSubmit={async (values) => {
              await create.mutateAsync(toCreateBody(values));
              notifySuccess(t('resellers.form.created'));
              await navigate({ to: '/resellers' });
            }}
          />
        )}
      </WhenLoaded>
    </FormPageShell>
  );
}
