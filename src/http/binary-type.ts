/** The last content type `isBinaryType` read and its verdict: a provider answers with one type, call after call. */
let lastType: { contentType: string; binary: boolean } | undefined;

/** A media type that is not JSON or text: images, PDFs, archives, `application/octet-stream`. */
export function isBinaryType(contentType: string | null): boolean {
  if (!contentType) return false;
  if (lastType?.contentType === contentType) return lastType.binary;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const binary = !/^text\/|json|xml|javascript|x-www-form-urlencoded/.test(type);
  lastType = { contentType, binary };
  return binary;
}
