import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import type { ResponsiveColumn } from '../../components/table/ResponsiveTable';
import type { SortState } from '../../components/table/tableSearch';
import { useTableState } from '../../components/table/useTableState';
import { YesNoBadge } from '../../components/YesNoBadge';
import type { Package } from '../../api/types';
import { usePackages } from './api';
import { packagesSearch } from './search';
import './texts';

const DEFAULT_SORT: SortState = { field: 'id', direction: 'asc' };

/** /packages — paged, sortable package list with an edit link per row. */
export function PackagesPage() {
  const { t } = useTranslation();
  const table = useTableState(packagesSearch, DEFAULT_SORT);
  const query = usePackages(table.apiQuery);

  const columns: ResponsiveColumn<Package>[] = [
    { accessor: 'id', title: t('packages.id'), sortable: true, width: 80 },
    { accessor: 'package_name', title: t('packages.name'), sortable: true, card: 'title' },
    { accessor: 'is_trial', title: t('packages.isTrial'), sortable: true, render: (p) => <YesNoBadge value={p.is_trial} /> },
    { accessor: 'is_official', title: t('packages.isOfficial'), sortable: true, render: (p) => <YesNoBadge value={p.is_official} /> },
    {
      accessor: 'actions',
      title: t('common.actions'),
      textAlign: 'right',
      width: 90,
      card: 'actions',
      render: (p) => (
        <Tooltip label={t('common.edit')}>
          <ActionIcon
            renderRoot={(props) => <Link {...props} to="/packages/$packageId/edit" params={{ packageId: String(p.id) }} />}
            variant="subtle"
            aria-label={t('packages.editAria', { name: p.package_name })}
            data-testid={`package-edit-${p.id}`}
          >
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('packages.title')}
        actions={
          <Button component={Link} to="/packages/new" leftSection={<IconPlus size={18} />} data-testid="package-create">
            {t('packages.create')}
          </Button>
        }
      />
      <ListTable columns={columns} query={query} table={table} testId="packages-table" rowTestId={(p) => `package-row-${p.id}`} />
    </>
  );
}
