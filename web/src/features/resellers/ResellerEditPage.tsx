import { useParams } from '@tanstack/react-router';
import { notifySuccess } from '../../api/notify';
import { useTranslation } from 'react-i18next';
import { FormPageShell } from '../../components/FormPageShell';
import { WhenLoaded } from '../../components/WhenLoaded';
import { useGoBack } from '../../components/useGoBack';
import { useReseller, useUpdateReseller } from './api';
import { EMPTY_RESELLER, ResellerForm, type ResellerFormValues } from './ResellerForm';
import type { ResellerDetail, ResellerUpdate } from '../../api/types';
import { isValidId } from '../../lib/ids';
import './texts';

const toValues = (r: ResellerDetail): ResellerFormValues => ({
  ...EMPTY_RESELLER,
  username: r.username,
  email: r.email ?? '',
  whatsapp: r.whatsapp ?? '',
  telegram: r.telegram ?? '',
  notes: r.notes ?? '',
});

/** Update body: only the changed fields; an empty password keeps the current one, emptied texts clear the field. */
function toUpdateBody(v: ResellerFormValues, before: ResellerFormValues): ResellerUpdate {
  const body: ResellerUpdate = {};
  for (const f of ['username', 'email', 'whatsapp', 'telegram', 'notes'] as const) {
    const text = v[f].trim();
    if (text !== before[f].trim()) body[f] = text;
  }
  if (v.password) body.password = v.password;
  return body;
}

/** /resellers/{id}/edit — prefilled; success shows "Revendedor atualizado!" and goes back. */
export function ResellerEditPage() {
  const { t } = useTranslation();
  const { resellerId } = useParams({ from: '/auth/manager/resellers/$resellerId/edit' });
  const id = Number(resellerId);
  const valid = isValidId(id);
  const reseller = useReseller(valid ? id : 0);
  const update = useUpdateReseller(id);
  const goBack = useGoBack('/resellers');

  return (
    <FormPageShell title={t('resellers.editTitle', { username: reseller.data?.username ?? `#${resellerId}` })} onBack={goBack} backTestId="reseller-back">
      <WhenLoaded errorTestId="reseller-error" valid={valid} query={reseller}>
      {(data) => (
        <ResellerForm
          key={data.id}
          mode="edit"
          initial={toValues(data)}
          onCancel={goBack}
          onSubmit={async (values) => {
            await update.mutateAsync(toUpdateBody(values, toValues(data)));
            notifySuccess(t('resellers.form.updated'));
            goBack();
          }}
        />
      )}
      </WhenLoaded>
    </FormPageShell>
  );
}
