// The reminder stages and statuses the API speaks (the router's search validation needs them: kept
// apart from the data hooks, which load with the pages).

export const STAGES = ['before_7', 'before_3', 'before_1', 'day', 'after_1', 'after_3'] as const;
export type Stage = (typeof STAGES)[number];
export const STATUSES = ['sent', 'retry', 'failed', 'sending', 'cancelled'] as const;
export type Channel = 'whatsapp' | 'email';
