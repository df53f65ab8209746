import { IntentKeys } from '../api/intentKeys';
import type { Answer } from '../api/types';
import { call } from './api';

// The customer page's calls: a customer session (cs_...), kept in this tab only, never the panel's.
export type CustomerLine = Answer<'/api/customer/line', 'get'>;
export type CustomerCharge = Answer<'/api/customer/payments/{id}', 'get'>;

const KEY = 'customer-session';
export const customerToken = () => sessionStorage.getItem(KEY);
export const forgetCustomer = () => sessionStorage.removeItem(KEY);

export async function customerSignIn(body: { username: string; password: string } | { link: string }): Promise<string> {
  const { token } = await call<{ token: string }>('POST', '/api/customer/sign-in', { body });
  sessionStorage.setItem(KEY, token);
  return token;
}

export const customerLine = (token: string, signal?: AbortSignal) => call<CustomerLine>('GET', '/api/customer/line', { bearer: token, signal });

/** A PIX charge for one offer: pressing again after a failure sends the same key (the same charge, retried). */
const intents = new IntentKeys();
export const createCharge = (token: string, packageId: number) =>
  intents.send({ packageId }, (key) => call<CustomerCharge>('POST', '/api/customer/payments', { body: { package_id: packageId }, headers: { 'Idempotency-Key': key }, bearer: token }));

export const customerCharge = (token: string, id: number, signal?: AbortSignal) => call<CustomerCharge>('GET', `/api/customer/payments/${id}`, { bearer: token, signal });
