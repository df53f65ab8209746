import type { TFunction } from 'i18next';
import type { Channel, GatewayFailure } from './api';
import './texts';

/** A gateway's failure in the user's words: "O WhatsApp (Evolution) não respondeu: conexão recusada." */
export function failureText(t: TFunction, channel: Channel, failure: GatewayFailure): string {
  return t(`reminders.failures.${failure.reason}`, { system: t(`reminders.systems.${channel}`), status: failure.status ?? '-' });
}
