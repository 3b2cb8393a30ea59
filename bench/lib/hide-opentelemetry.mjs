import { register } from 'node:module';

/**
 * Preload (`node --import ./hide-opentelemetry.mjs ...`) for the otel
 * figure's "not installed" side: every `@opentelemetry/*` import fails as a
 * package that is not there would, in a repository that has them installed.
 */
register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (specifier.startsWith('@opentelemetry/')) {
        const error = new Error("Cannot find package '" + specifier + "'");
        error.code = 'ERR_MODULE_NOT_FOUND';
        throw error;
      }
      return next(specifier, context);
    }`)}`,
);
