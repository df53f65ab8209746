/**
 * News body as text: the old panel stored it URL-encoded. Decodes it when it is valid percent-encoding
 * ('+' kept as is), otherwise returns it untouched; line endings become '\n'. Never HTML.
 */
export function decodeNewsBody(body: string): string {
  let text = body;
  try {
    text = decodeURIComponent(body);
  } catch {
    text = body;
  }
  return text.replace(/\r\n?/g, '\n');
}

/** The decoded body split into lines (rendered with <br /> between them). */
export function newsLines(body: string): string[] {
  return decodeNewsBody(body).split('\n');
}
