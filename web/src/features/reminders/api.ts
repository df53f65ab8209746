import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ReminderHistoryQuery, ReminderMessage, ReminderSettings, ReminderSettingsBody } from '../../api/types';
import type { Channel, Stage } from './constants';
import { reminderKeys } from './queryKeys';

export { type Channel, STAGES, STATUSES, type Stage } from './constants';

export type { ReminderMessage, ReminderSettings };
export type Language = ReminderSettings['language'];

export function useReminderSettings() {
  return useQuery({ queryKey: reminderKeys.settings(), queryFn: ({ signal }) => api.GET('/api/reminders/settings', { signal }) });
}

export type SettingsBody = ReminderSettingsBody;

/** PUT /reminders/settings (the client toasts a failure; the form marks the field it names). */
export function useSaveReminderSettings() {
  const qc = useQueryClient();
  return useMutation({
    // silent: the form shows the failure (showFormError: under its input, or toasted)
    mutationFn: (body: SettingsBody) => api.PUT('/api/reminders/settings', { body, silent: true }),
    onSuccess: (data) => {
      qc.setQueryData(reminderKeys.settings(), data);
      void qc.invalidateQueries({ queryKey: reminderKeys.today() });
      void qc.invalidateQueries({ queryKey: reminderKeys.whatsappCheck() });
    },
  });
}

export function usePreview() {
  return useMutation({
    mutationFn: (body: { stage: Stage; language: Language; text: string }) => api.POST('/api/reminders/preview', { body }),
  });
}

export function useSendTest() {
  return useMutation({ mutationFn: sendTest });
}

/** A gateway's failure as the server names it (a failed test, a failed check). */
export type GatewayFailure = NonNullable<Awaited<ReturnType<typeof sendTest>>['failure']>;
const sendTest = (body: { channel: Channel; to: string }) => api.POST('/api/reminders/test', { body });

/**
 * Does the saved WhatsApp gateway answer? Asked when the page shows a configured gateway, and
 * again from its "Testar conexão" button (refetch); never in the background.
 */
export function useWhatsAppCheck(configured: boolean) {
  return useQuery({
    queryKey: reminderKeys.whatsappCheck(),
    queryFn: ({ signal }) => api.POST('/api/reminders/whatsapp/check', { signal, silent: true }),
    enabled: configured,
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export type HistoryQuery = ReminderHistoryQuery;

export function useReminderHistory(query: HistoryQuery) {
  return useQuery({
    queryKey: reminderKeys.history(query),
    queryFn: ({ signal }) => api.GET('/api/reminders/messages', { params: { query }, signal }),
    placeholderData: keepPreviousData,
    // the scheduler adds messages on its own: asked again when shown, and every 15 s
    staleTime: 0,
    refetchInterval: 15_000,
  });
}
