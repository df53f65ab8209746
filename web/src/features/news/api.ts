import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { NEWS_KEY } from '../../api/news';
import type { NewsItem } from '../../api/types';

/** PUT /news/{id} (admin). Errors are shown by the caller (silent). */
export function useSaveNews() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: NewsItem) => api.PUT('/api/news/{id}', { params: { path: { id } }, body, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: NEWS_KEY }),
  });
}
