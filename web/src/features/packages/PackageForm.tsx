import { Fieldset, MultiSelect, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { NumberField } from '../../components/NumberField';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { useBouquets } from '../../api/catalogue';
import type { DurationUnit, PackageInput } from '../../api/types';
import { FormActions } from '../../components/FormActions';
import './texts';

const DURATION_UNITS: readonly DurationUnit[] = ['hours', 'days', 'months', 'years'];

export const EMPTY_PACKAGE: PackageInput = {
  package_name: '',
  is_trial: 0,
  is_official: 1,
  max_connections: 1,
  official_credits: 1,
  official_duration: 1,
  official_duration_in: 'months',
  trial_credits: 0,
  trial_duration: 4,
  trial_duration_in: 'hours',
  bouquets: [],
};

const NUMBER_FIELDS = ['max_connections', 'official_credits', 'official_duration', 'trial_credits', 'trial_duration'] as const;

/** NumberInput yields '' when emptied: send integers only. */
function normalize(values: PackageInput): PackageInput {
  const out = { ...values, package_name: values.package_name.trim() };
  for (const f of NUMBER_FIELDS) out[f] = Math.max(0, Math.trunc(Number(values[f]) || 0));
  out.max_connections = Math.max(1, out.max_connections);
  return out;
}

interface Props {
  initial: PackageInput;
  onSubmit: (values: PackageInput) => Promise<unknown>;
  onCancel: () => void;
}

/** Every package field plus the bouquet multi-select ("id - name"). Server field errors land on the field. */
export function PackageForm({ initial, onSubmit, onCancel }: Props) {
  const { t } = useTranslation();
  const bouquets = useBouquets();
  const form = useForm<PackageInput>({
    initialValues: initial,
    validate: {
      package_name: (v) => (v.trim() ? null : t('packages.nameRequired')),
      bouquets: (v) => (v.length > 0 ? null : t('packages.bouquetRequired')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await onSubmit(normalize(values));
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      if (isApiError(e) && e.code === 'BOUQUET_REQUIRED') form.setFieldError('bouquets', t('packages.bouquetRequired'));
      else if (isApiError(e) && e.field && e.field in values) form.setFieldError(e.field, e.message);
    }
  });

  const units = DURATION_UNITS.map((u) => ({ value: u, label: t(`packages.units.${u}`) }));
  const bouquetOptions = (bouquets.data ?? []).map((b) => ({ value: String(b.id), label: `${b.id} - ${b.bouquet_name}` }));
  const int = { allowDecimal: false, allowNegative: false, min: 0 } as const;
  const flag = (field: 'is_trial' | 'is_official') => ({
    checked: form.values[field] === 1,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => form.setFieldValue(field, e.currentTarget.checked ? 1 : 0),
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label={t('packages.name')} required maxLength={100} data-testid="package-name" {...form.getInputProps('package_name')} />
        <MultiSelect
          label={t('packages.bouquets')}
          placeholder={t('packages.bouquetsPlaceholder')}
          required
          searchable
          clearable
          hidePickedOptions
          data={bouquetOptions}
          disabled={bouquets.isLoading}
          nothingFoundMessage={t('common.noRecords')}
          data-testid="package-bouquets"
          {...form.getInputProps('bouquets')}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NumberField label={t('packages.maxConnections')} {...int} min={1} max={100} data-testid="package-max-connections" {...form.getInputProps('max_connections')} />
          <Switch mt={{ sm: 30 }} label={t('packages.isOfficial')} data-testid="package-is-official" {...flag('is_official')} />
          <Switch mt={{ sm: 30 }} label={t('packages.isTrial')} data-testid="package-is-trial" {...flag('is_trial')} />
        </SimpleGrid>
        <Fieldset legend={t('packages.official')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberField label={t('packages.credits')} {...int} max={10000} data-testid="package-official-credits" {...form.getInputProps('official_credits')} />
            <NumberField label={t('packages.duration')} {...int} max={120} data-testid="package-official-duration" {...form.getInputProps('official_duration')} />
            <Select label={t('packages.durationIn')} data={units} allowDeselect={false} data-testid="package-official-duration-in" {...form.getInputProps('official_duration_in')} />
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('packages.trial')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberField label={t('packages.credits')} {...int} max={10000} data-testid="package-trial-credits" {...form.getInputProps('trial_credits')} />
            <NumberField label={t('packages.duration')} {...int} max={720} data-testid="package-trial-duration" {...form.getInputProps('trial_duration')} />
            <Select label={t('packages.durationIn')} data={units} allowDeselect={false} data-testid="package-trial-duration-in" {...form.getInputProps('trial_duration_in')} />
          </SimpleGrid>
        </Fieldset>
        <FormActions onCancel={onCancel} submitting={form.submitting} cancelTestId="package-cancel" submitTestId="package-save" />
      </Stack>
    </form>
  );
}
