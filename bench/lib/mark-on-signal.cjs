// Preloaded (`node -r`) into a server counted under callgrind (server-instructions.mjs): each
// SIGUSR2 enters uv_os_getpriority, where callgrind dumps its count (`--dump-before`), then says
// so on stderr, so the parent knows the count up to that point is split off before it sends more.
const os = require('node:os');

let marks = 0;
process.on('SIGUSR2', () => {
  os.getPriority();
  marks += 1;
  process.stderr.write(`mark ${marks}\n`);
});
