/**
 * What a connection id may be: letters, digits, _ and -, up to 64
 * characters. Its own module, without zod, so the CLI can check an id
 * option while building its command tree without loading the schemas.
 */
export const connectionIdPattern = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
