/** The reminders feature's query keys. */
export const reminderKeys = {
  /** ReminderSettings: GET /reminders/settings. */
  settings: () => ['reminders', 'settings'] as const,
  /** Paged ReminderMessage: GET /reminders/messages. */
  history: (query: object) => ['reminders', 'messages', query] as const,
  /** today's figures: GET /reminders/today (the dashboard card). */
  today: () => ['reminders', 'today'] as const,
  /** whether the WhatsApp gateway answers now: POST /reminders/whatsapp/check (asked on the page's load and its button). */
  whatsappCheck: () => ['reminders', 'whatsapp-check'] as const,
  /** a line's customer renewal link, null without PIX payments: GET /reminders/renewal-link/{line_id} (the WhatsApp message). */
  renewalLink: (lineId: number) => ['reminders', 'renewal-link', lineId] as const,
};
