import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A server-rendered framework (Next.js and the like) imports a client
 * component's modules in Node to render its first HTML: `toolsteps/ui` must
 * import there without throwing, and the docs' React example must render
 * to a string. The example is bundled as a server bundle would have it
 * (react left to Node's own copy), then rendered with react-dom/server.
 */
// Inside the project, so Node resolves the bundles' react imports from its node_modules.
mkdirSync(path.resolve('node_modules/.cache'), { recursive: true });
const folder = mkdtempSync(path.resolve('node_modules/.cache/toolsteps-ssr-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function bundleForNode(entry: string, name: string): Promise<string> {
  const outfile = path.join(folder, `${name}.mjs`);
  await build({
    entryPoints: [path.resolve(entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    jsx: 'automatic',
    external: ['react', 'react-dom', 'react/*', 'react-dom/*'],
    alias: { 'toolsteps/ui': path.resolve('ui/index.ts') },
    logLevel: 'error',
  });
  return outfile;
}

describe('the UI kit in a server render', () => {
  it('imports in Node without a DOM, defining nothing and throwing nothing', async () => {
    expect(typeof globalThis.HTMLElement).toBe('undefined');
    const kit = await import(pathToFileURL(await bundleForNode('ui/index.ts', 'kit')).href);
    expect(Object.keys(kit.ELEMENTS)).toContain('toolsteps-step-search');
    // configure() in a server render has no element to reload, and says nothing about it.
    expect(() => kit.configure({ baseUrl: 'https://builder-api.example', token: 't' })).not.toThrow();
  });

  it('renders the docs’ React example to HTML with react-dom/server', async () => {
    const entry = path.join(folder, 'render.tsx');
    writeFileSync(
      entry,
      `import { renderToString } from 'react-dom/server';
       import { ToolStepPicker } from ${JSON.stringify(path.resolve('docs/examples/react-builder.tsx'))};
       export const html = renderToString(<ToolStepPicker />);`,
    );
    const bundled = await bundleForNode(entry, 'render');
    const { html } = await import(pathToFileURL(bundled).href);
    expect(html).toContain('<toolsteps-step-search');
  });
});
