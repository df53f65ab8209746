import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { newsKeys } from '../../api/news';
import type { NewsItem } from '../../api/types';

/** PUT /news/{id} (admin). */
export function useSaveNews() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: NewsItem) => api.PUT('/api/news/{id}', { params: { path: { id } }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: newsKeys.all() }),
  });
}
