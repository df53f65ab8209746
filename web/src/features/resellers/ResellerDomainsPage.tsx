import { useParams } from '@tanstack/react-router';
import { notifySuccess, } from '../../api/notify';
import { Button, Code, Group, Paper, Stack, TextInput } from '@mantine/core';
import { IconArrowLeft, IconPlus, IconWorldWww } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { ResponsiveTable } from '../../components/table/ResponsiveTable';
import { useGoBack } from '../../components/useGoBack';
import { useAddDomain, useDomains, useReseller } from './api';
import type { Domain } from '../../api/types';
import { isValidId } from '../../lib/ids';
import { formatDateTime } from '../../lib/format';
import './texts';


/** /resellers/{id}/add_domains — the reseller's custom domains ('no domain registered' when empty) and an add form. */
export function ResellerDomainsPage() {
  const { t } = useTranslation();
  const { resellerId } = useParams({ from: '/auth/manager/resellers/$resellerId/add_domains' });
  const id = Number(resellerId);
  const valid = isValidId(id);
  const reseller = useReseller(valid ? id : 0);
  const domains = useDomains(valid ? id : 0);
  const add = useAddDomain(id);
  const goBack = useGoBack('/resellers');
  const form = useForm({ initialValues: { dns: '' }, validate: { dns: (v) => (v.trim() ? null : t('resellers.domains.required')) } });

  const submit = form.onSubmit(async ({ dns }) => {
    try {
      await add.mutateAsync(dns.trim());
      notifySuccess(t('resellers.domains.added'));
      form.reset();
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      if (isApiError(e) && e.code === 'VALIDATION' && e.field === 'dns_reseller') form.setFieldError('dns', t('resellers.domains.invalid'));
    }
  });

  const rows = domains.data ?? [];

  return (
    <Stack gap="md" maw={900}>
      <Stack gap={0}>
        <PageHeader
          title={t('resellers.domains.title', { username: reseller.data?.username ?? `#${resellerId}` })}
          actions={
            <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={goBack} data-testid="reseller-back">
              {t('common.back')}
            </Button>
          }
        />
      </Stack>

      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('resellers.domains.field')}
              description={t('resellers.domains.hint')}
              placeholder="https://tv.example.com"
              leftSection={<IconWorldWww size={16} />}
              inputMode="url"
              autoComplete="off"
              maxLength={255}
              {...form.getInputProps('dns')}
              disabled={!valid}
              data-testid="domain-input"
            />
            <Group justify="flex-end">
              <Button type="submit" leftSection={<IconPlus size={16} />} loading={add.isPending} disabled={!valid} data-testid="domain-add">
                {t('resellers.domains.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {domains.isError ? (
        <LoadErrorAlert onRetry={domains.refetch} title={t('resellers.domains.fetchError')} testId="domains-error" />
      ) : (
        <ResponsiveTable<Domain>
          minHeight={140}
          records={rows}
          idAccessor={(d) => String(d.id ?? d.token_id ?? d.dns_reseller)}
          fetching={domains.isFetching}
          loading={domains.isPending}
          noRecordsText={t('resellers.domains.empty')}
          testId="domains-table"
          columns={[
            { accessor: 'dns_reseller', title: t('resellers.domains.domain'), card: 'title', render: (d) => d.dns_reseller ?? '—' },
            { accessor: 'created_at', title: t('resellers.domains.createdAt'), noWrap: true, render: (d) => formatDateTime(d.created_at) },
            {
              accessor: 'token_id',
              title: t('resellers.domains.token'),
              visibleFrom: 'md',
              render: (d) => (d.token_id ? <Code>{d.token_id}</Code> : '—'),
            },
          ]}
        />
      )}
    </Stack>
  );
}
