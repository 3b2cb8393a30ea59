#!/usr/bin/env node
// `prepack` of the repository: `npm pack` and `npm publish` run in a clone
// stop here, before anything is packed or written.
//
// Why: npm packs the folder it runs in, exactly as it is on disk, and has no
// setting to pack another folder. The published package.json (without
// `prepare`) and the compact JSON documents must therefore either be written
// over the files git tracks for the length of the pack (a pack that failed or
// was killed half-way left them changed) or made in a staged copy. The copy
// is what `npm run pack:staged` packs, and `npm run release` publishes that
// tarball: `npm publish <tarball>` runs none of the repository's scripts.
console.error(
  [
    'toolsteps is not packed from the working tree: its published package.json and JSON documents are made in a staged copy.',
    '  npm run pack:staged                       # builds and packs the current sources; prints the tarball',
    '  npm run release -- [npm publish options]  # the same, then npm publish <that tarball>',
  ].join('\n'),
);
process.exit(1);
