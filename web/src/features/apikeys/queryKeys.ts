/** The API keys feature's query keys. */
export const apiKeyKeys = {
  /** ApiKey[]: GET /api-keys (the `data` array). */
  list: () => ['api-keys'] as const,
  /** WebhookEndpoint[]: GET /webhooks (the `data` array). */
  webhooks: () => ['webhooks'] as const,
  /** WebhookDelivery[]: GET /webhooks/{id}/deliveries. */
  deliveries: (id: number) => ['webhooks', id, 'deliveries'] as const,
};
