import { Button, Menu } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDownloadExport } from '../api/download';

type Format = 'csv' | 'xlsx';

/**
 * "Exportar" menu of a list page: downloads every row matching the page's current filters
 * (`path` without the extension, e.g. '/users/export').
 */
export function ExportMenu({ path, query, formats = ['csv'], testId }: { path: string; query: Record<string, string | number | undefined>; formats?: Format[]; testId: string }) {
  const { t } = useTranslation();
  // on failure the API client has shown the error
  const download = useDownloadExport();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconDownload size={18} />} loading={download.isPending} data-testid={testId}>
          {t('export.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {formats.map((f) => (
          <Menu.Item
            key={f}
            leftSection={f === 'csv' ? <IconFileTypeCsv size={16} /> : <IconFileSpreadsheet size={16} />}
            onClick={() => void download.mutateAsync({ path: `${path}.${f}`, query })}
            data-testid={`${testId}-${f}`}
          >
            {t(`export.${f}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
