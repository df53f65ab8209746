import { Alert, Text } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_NEWS_ID, useNews } from '../../api/news';
import { NewsBody } from '../../components/NewsBody';
import './texts';

/** The dashboard notice (news item 1), only when it exists and is active. Text only, never HTML. */
export function NewsBox() {
  const { t } = useTranslation();
  const news = useNews();
  const item = news.data?.find((n) => n.id === DASHBOARD_NEWS_ID && n.status === 1);
  if (!item) return null;
  const subtitle = item.title.trim();
  return (
    <Alert
      variant="light"
      color="blue"
      radius="md"
      icon={<IconSpeakerphone size={20} />}
      title={t('dashboard.news.title')}
      data-testid="dashboard-news"
      styles={{ title: { fontSize: 'var(--mantine-font-size-md)' } }}
    >
      {subtitle && subtitle !== t('dashboard.news.title') && (
        <Text fw={700} size="sm" mb={4} data-testid="dashboard-news-title">
          {subtitle}
        </Text>
      )}
      <NewsBody body={item.body} testId="dashboard-news-body" />
    </Alert>
  );
}
