import { register } from 'node:module';

/**
 * Preload (`node --import ./same-loader.mjs ...`) for the otel figures' sides
 * that keep `@opentelemetry/*` importable: a resolve hook that passes every
 * import on. The "not installed" side runs hide-opentelemetry.mjs, and a
 * registered hook costs every later `import()` a trip to the hooks thread,
 * so both sides carry one and differ only in what the hook answers.
 */
register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      return next(specifier, context);
    }`)}`,
);
