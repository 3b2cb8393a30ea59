/** Reads a whole body: parsed JSON when the content type says JSON (text when it does not parse), else text. */
export async function readBody(response: Response): Promise<{ body: unknown; bytes: number }> {
  const raw = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(raw);
  if (text === '') return { body: null, bytes: raw.byteLength };
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return { body: JSON.parse(text), bytes: raw.byteLength };
    } catch {
      return { body: text, bytes: raw.byteLength };
    }
  }
  return { body: text, bytes: raw.byteLength };
}
