/** The bouquets feature's query keys (the bouquet list itself is read in api/catalogue.ts). */
export const bouquetKeys = {
  /** BouquetContents: GET /admin/bouquets/{id}. */
  contents: (id: number) => ['bouquetContents', id] as const,
};
