import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { telegramKeys } from './queryKeys';
import type { TelegramSettingsBody } from './types';
import './texts';

export type { TelegramLinkCode, TelegramSettings, TelegramSettingsBody } from './types';

/** While a link code is shown the page asks every this often whether the chat got linked. */
export const LINK_POLL_MS = 3000;

/** The account's bot; `poll` asks again every LINK_POLL_MS (quietly: a failed poll shows nothing). */
export function useTelegramSettings(poll = false) {
  return useQuery({
    queryKey: telegramKeys.settings(),
    queryFn: ({ signal }) => api.GET('/api/telegram/settings', { signal, silent: poll, errorScopes: ['telegram'] }),
    refetchInterval: poll ? LINK_POLL_MS : false,
  });
}

/** PUT /telegram/settings: token (write-only; null disconnects), on/off, the low-credits warning. */
export function useSaveTelegramSettings() {
  const qc = useQueryClient();
  return useMutation({
    // silent: the form shows the failure (showFormError: under its input, or toasted)
    mutationFn: (body: TelegramSettingsBody) => api.PUT('/api/telegram/settings', { body, silent: true }),
    onSuccess: (data) => qc.setQueryData(telegramKeys.settings(), data),
  });
}

/** PUT /telegram/settings `bot_token: null`: the bot is disconnected (the client toasts a failure). */
export function useDisconnectBot() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.PUT('/api/telegram/settings', { body: { bot_token: null }, errorScopes: ['telegram'] }),
    onSuccess: (data) => qc.setQueryData(telegramKeys.settings(), data),
  });
}

/** POST /telegram/link-code: a one-time code (15 minutes) that links the account's own chat to its bot. */
export function useLinkCode() {
  return useMutation({ mutationFn: () => api.POST('/api/telegram/link-code', { errorScopes: ['telegram'] }) });
}

/** DELETE /telegram/owner-chat: the account's chat stops getting its news. */
export function useUnlinkOwnerChat() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.DELETE('/api/telegram/owner-chat', { errorScopes: ['telegram'] }),
    onSuccess: () => qc.invalidateQueries({ queryKey: telegramKeys.settings() }),
  });
}
