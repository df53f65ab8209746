import { Alert, Button, FileInput, Group, Paper, Progress, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { errorText } from '../../lib/errors';
import { IconCheck, IconFileImport, IconUpload } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import type { CatalogueImport, CatalogueKind } from '../../api/types';
import i18n from '../../i18n';
import { useImportCatalogue } from './api';
import { ImportSummary } from './ImportSummary';
import { KINDS } from '../../api/catalogue';
import './texts';
import { ErrorAlert } from '../../components/basic/ErrorAlert';

type Source = 'file' | 'url';
type Phase = 'idle' | 'reading' | 'importing';

/** Error text of a failed import: the catalogue's own texts for its codes, with the server's detail. */
function importErrorText(e: unknown): string {
  if (!isApiError(e)) return i18n.t('errors.UNKNOWN');
  if (e.code === 'IMPORT_RUNNING') return i18n.t('catalogue.import.errors.IMPORT_RUNNING');
  if (['M3U_INVALID', 'URL_NOT_ALLOWED', 'UPSTREAM_ERROR'].includes(e.code)) return i18n.t(`catalogue.import.errors.${e.code}`, { message: e.message });
  return errorText(e);
}

/** Import panel of /catalogue: an M3U file (read in the browser) or a URL (fetched by the server), a progress bar, then the summary. */
export function ImportPanel() {
  const { t } = useTranslation();
  const run = useImportCatalogue();
  const form = useForm<{ source: Source; file: File | null; url: string; kind: CatalogueKind | null }>({ initialValues: { source: 'file', file: null, url: '', kind: null } });
  const { source, file, url, kind } = form.values;
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(null);

  const ready = source === 'file' ? !!file : /^https?:\/\/\S+$/i.test(url.trim());
  const busy = phase !== 'idle';

  const submit = form.onSubmit(async () => {
    if (!ready || busy) return;
    setError(null);
    run.reset();
    try {
      let body: CatalogueImport;
      if (source === 'file' && file) {
        setPhase('reading');
        body = { m3u: await file.text() };
      } else body = { url: url.trim() };
      if (kind) body.kind = kind;
      setPhase('importing');
      await run.mutateAsync(body);
    } catch (err) {
      // the call is silent: its error shows in place
      setError(importErrorText(err));
    } finally {
      setPhase('idle');
    }
  });

  return (
    <Paper withBorder radius="md" p="md" data-testid="catalogue-import">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Title order={2} size="h5">
            {t('catalogue.import.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('catalogue.import.help')}
          </Text>
          <SegmentedControl
            {...form.getInputProps('source')}
            data={[
              { value: 'file', label: t('catalogue.import.fromFile') },
              { value: 'url', label: t('catalogue.import.fromUrl') },
            ]}
            disabled={busy}
            w="fit-content"
            data-testid="import-source"
          />
          <Group gap="sm" align="flex-end" wrap="wrap">
            {source === 'file' ? (
              <FileInput
                style={{ flex: 1 }}
                miw={240}
                label={t('catalogue.import.file')}
                placeholder={t('catalogue.import.filePlaceholder')}
                accept=".m3u,.m3u8,audio/x-mpegurl,application/vnd.apple.mpegurl,text/plain"
                leftSection={<IconUpload size={16} />}
                clearable
                {...form.getInputProps('file')}
                disabled={busy}
                data-testid="import-file"
              />
            ) : (
              <TextInput
                style={{ flex: 1 }}
                miw={240}
                type="url"
                label={t('catalogue.import.url')}
                placeholder="https://provedor.exemplo/get.php?username=…&type=m3u_plus"
                maxLength={2048}
                {...form.getInputProps('url')}
                disabled={busy}
                data-testid="import-url"
              />
            )}
            <Select
              w={200}
              label={t('catalogue.import.kind')}
              placeholder={t('catalogue.import.kindAuto')}
              clearable
              data={KINDS.map((k) => ({ value: k, label: t(`catalogue.kinds.${k}`) }))}
              {...form.getInputProps('kind')}
              disabled={busy}
              data-testid="import-kind"
            />
            <Button type="submit" leftSection={<IconFileImport size={18} />} loading={busy} disabled={!ready} data-testid="import-submit">
              {t('catalogue.import.submit')}
            </Button>
          </Group>
          {busy && (
            <Stack gap={4} data-testid="import-progress" aria-live="polite">
              <Text size="sm">{phase === 'reading' ? t('catalogue.import.reading') : t(source === 'url' ? 'catalogue.import.fetching' : 'catalogue.import.importing')}</Text>
              <Progress value={100} striped animated aria-label={t('catalogue.import.progress')} />
            </Stack>
          )}
          {error && (
            <ErrorAlert title={t('catalogue.import.failed')} testId="import-error">
              {error}
            </ErrorAlert>
          )}
          {run.data && !busy && (
            <Alert color="green" icon={<IconCheck size={18} />} title={t('catalogue.import.done')} data-testid="import-summary">
              <ImportSummary result={run.data} />
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
