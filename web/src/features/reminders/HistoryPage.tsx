import { Badge, Button, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSettings } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import { useTableState } from '../../components/table/useTableState';
import { formatDateTime } from '../../lib/format';
import { type ReminderMessage, STAGES, STATUSES, useReminderHistory } from './api';
import { historySearch } from './search';
import './texts';

const COLORS: Record<string, string> = { sent: 'green', retry: 'orange', sending: 'blue', failed: 'red', cancelled: 'gray' };

/** /reminders/history — every reminder message: line, channel, stage, status, the gateway's answer; filters and pages. */
export function HistoryPage() {
  const { t } = useTranslation();
  const table = useTableState(historySearch);
  const f = table.filters;
  const query = useReminderHistory({ page: table.page, per: table.per, line: f.line, stage: f.stage, status: f.status, channel: f.channel });
  const [line, setLine] = useState(f.line ?? '');
  const setLineFilter = useDebouncedCallback((value: string) => table.setFilters({ line: value.trim() || undefined }), 400);
  const any = { value: '', label: t('reminders.filters.any') };
  const select = (value: string | null) => (value ? value : undefined);

  return (
    <Stack gap="sm">
      <PageHeader
        title={t('reminders.historyTitle')}
        actions={
          <Button component={Link} to="/reminders" variant="light" leftSection={<IconSettings size={18} />} data-testid="reminders-settings-link">
            {t('reminders.historyBack')}
          </Button>
        }
      />
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <TextInput
            label={t('reminders.filters.line')}
            value={line}
            maxLength={50}
            onChange={(e) => {
              setLine(e.currentTarget.value);
              setLineFilter(e.currentTarget.value);
            }}
            data-testid="reminders-filter-line"
          />
          <Select
            label={t('reminders.filters.channel')}
            value={f.channel ?? ''}
            data={[any, ...(['whatsapp', 'email'] as const).map((c) => ({ value: c, label: t(`reminders.channels.${c}`) }))]}
            onChange={(value) => table.setFilters({ channel: select(value) as typeof f.channel })}
            allowDeselect={false}
            data-testid="reminders-filter-channel"
          />
          <Select
            label={t('reminders.filters.stage')}
            value={f.stage ?? ''}
            data={[any, ...STAGES.map((s) => ({ value: s, label: t(`reminders.stageNames.${s}`) }))]}
            onChange={(value) => table.setFilters({ stage: select(value) as typeof f.stage })}
            allowDeselect={false}
            data-testid="reminders-filter-stage"
          />
          <Select
            label={t('reminders.filters.status')}
            value={f.status ?? ''}
            data={[any, ...STATUSES.map((s) => ({ value: s, label: t(`reminders.statuses.${s}`) }))]}
            onChange={(value) => table.setFilters({ status: select(value) as typeof f.status })}
            allowDeselect={false}
            data-testid="reminders-filter-status"
          />
        </SimpleGrid>
      </Paper>
      <ListTable<ReminderMessage>
        query={query}
        table={table}
        testId="reminders-history"
        rowTestId={(m) => `reminder-row-${m.id}`}
        emptyText={t('reminders.empty')}
        columns={[
          { accessor: 'username', title: t('reminders.columns.line'), card: 'title' },
          {
            accessor: 'status',
            title: t('reminders.columns.status'),
            render: (m) => (
              <Badge size="sm" variant="light" color={COLORS[m.status] ?? 'gray'} data-testid={`reminder-status-${m.id}`}>
                {t(`reminders.statuses.${m.status}`, { defaultValue: m.status })}
              </Badge>
            ),
          },
          { accessor: 'channel', title: t('reminders.columns.channel'), render: (m) => t(`reminders.channels.${m.channel}`, { defaultValue: m.channel }) },
          { accessor: 'stage', title: t('reminders.columns.stage'), render: (m) => t(`reminders.stageNames.${m.stage}`, { defaultValue: m.stage }) },
          { accessor: 'created_at', title: t('reminders.columns.when'), noWrap: true, render: (m) => formatDateTime(m.sent_at ?? m.created_at) },
          { accessor: 'recipient', title: t('reminders.columns.recipient'), visibleFrom: 'md', render: (m) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{m.recipient}</Text> },
          {
            accessor: 'answer',
            title: t('reminders.columns.answer'),
            visibleFrom: 'md',
            render: (m) => (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {[m.last_status, m.answer].filter((x) => x !== null && x !== '').join(' · ')}
              </Text>
            ),
          },
        ]}
      />
    </Stack>
  );
}
